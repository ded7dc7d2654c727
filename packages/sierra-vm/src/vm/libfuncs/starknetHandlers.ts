import {
  type ArrayValue,
  type EnumValue,
  type HandlerFactory,
  type LibfuncHandler,
  type RunContext,
  type StarknetHost,
  SyscallFailure,
  type Value,
} from '../types.js';
import { big, modP, valueArg } from './common.js';

const ADDRESS_BOUND = 1n << 251n;
const STORAGE_BASE_BOUND = ADDRESS_BOUND - 256n;
const BYTES31_BOUND = 1n << 248n;

const identity: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  return 0;
};
const constant: HandlerFactory = (d) => {
  const v = modP(valueArg(d, 0));
  return (_a, out) => {
    out[0] = v;
    return 0;
  };
};
/** `(range_check, felt) → ok (range_check, value) | err (range_check)` for values below `bound`. */
const tryFromFelt =
  (bound: bigint): HandlerFactory =>
  () =>
  (a, out) => {
    out[0] = a[0]!;
    if (big(a[1]) >= bound) return 1;
    out[1] = a[1]!;
    return 0;
  };
const spanFelts = (v: Value | undefined): bigint[] => {
  const s = (v as Value[])[0] as ArrayValue;
  return s.data.slice(s.start, s.end) as bigint[];
};

const NOT_SUPPORTED = 0x43414c4c5f434f4e54524143545f4e4f545f535550504f52544544n; // 'CALL_CONTRACT_NOT_SUPPORTED'
const SYSCALL_NOT_SUPPORTED = 0x53595343414c4c5f4e4f545f535550504f52544544n; // 'SYSCALL_NOT_SUPPORTED'

const felts = (xs: readonly bigint[]): ArrayValue => ({ data: xs.slice(), start: 0, end: xs.length });
const spanOf = (xs: readonly bigint[]): Value => [felts(xs)];

/**
 * A syscall `(gas, system, ...inputs) → ok (gas, system, ...outputs) | err (gas, system, Array<felt252>)`: `run`
 * writes the ok outputs from `out[2]` on; a {@link SyscallFailure} it throws takes the err branch with its data.
 */
const syscall =
  (run: (a: readonly Value[], out: Value[], ctx: RunContext) => void): LibfuncHandler =>
  (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    try {
      run(a, out, ctx);
      return 0;
    } catch (e) {
      if (!(e instanceof SyscallFailure)) throw e;
      out[2] = felts(e.data);
      return 1;
    }
  };

/** The host, or a failure of the syscall with 'SYSCALL_NOT_SUPPORTED' when the run has none. */
const hostOf = (ctx: RunContext): StarknetHost => {
  if (!ctx.host) throw new SyscallFailure([SYSCALL_NOT_SUPPORTED]);
  return ctx.host;
};

/** `(gas, system, target, selector, calldata) → ok (gas, system, Span result) | err (gas, system, revert array)`. */
const contractCall = (kind: 'call' | 'library'): LibfuncHandler =>
  syscall((a, out, ctx) => {
    const target = big(a[2]);
    const selector = big(a[3]);
    const calldata = spanFelts(a[4]);
    if (ctx.host) {
      out[2] = spanOf(
        kind === 'call'
          ? ctx.host.callContract(target, selector, calldata)
          : ctx.host.libraryCall(target, selector, calldata),
      );
      return;
    }
    const answer = ctx.callContract
      ? ctx.callContract({ kind, target, selector, calldata })
      : { revert: [NOT_SUPPORTED] };
    if (!Array.isArray(answer)) throw new SyscallFailure(answer.revert);
    out[2] = spanOf(answer);
  });

/**
 * Handlers of Starknet felt-like types (contract addresses, class hashes, storage addresses, bytes31: constants,
 * conversions) and of the storage, event, L1 message, replace class, contract/library call, deploy, block hash and
 * class hash syscalls (no gas taken). With a {@link StarknetHost} in the run every syscall goes to it (a
 * {@link SyscallFailure} it throws takes the syscall's error branch); without one they use the run's in-memory
 * storage, event and message lists and `callContract`, and deploy / get_block_hash / get_class_hash_at fail.
 */
export const STARKNET_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  contract_address_const: constant,
  class_hash_const: constant,
  storage_base_address_const: constant,
  bytes31_const: constant,
  contract_address_to_felt252: () => identity,
  class_hash_to_felt252: () => identity,
  storage_address_to_felt252: () => identity,
  bytes31_to_felt252: () => identity,
  storage_address_from_base: () => identity,
  contract_address_try_from_felt252: tryFromFelt(ADDRESS_BOUND),
  class_hash_try_from_felt252: tryFromFelt(ADDRESS_BOUND),
  storage_address_try_from_felt252: tryFromFelt(ADDRESS_BOUND),
  bytes31_try_from_felt252: tryFromFelt(BYTES31_BOUND),
  storage_base_address_from_felt252: () => (a, out) => {
    out[0] = a[0]!;
    out[1] = big(a[1]) % STORAGE_BASE_BOUND;
    return 0;
  },
  storage_address_from_base_and_offset: () => (a, out) => {
    out[0] = big(a[0]) + big(a[1]);
    return 0;
  },
  storage_read_syscall: () =>
    syscall((a, out, ctx) => {
      out[2] = ctx.host ? ctx.host.storageRead(big(a[2]), big(a[3])) : (ctx.storage.get(big(a[3])) ?? 0n);
    }),
  storage_write_syscall: () =>
    syscall((a, _out, ctx) => {
      if (ctx.host) ctx.host.storageWrite(big(a[2]), big(a[3]), big(a[4]));
      else ctx.storage.set(big(a[3]), big(a[4]));
    }),
  call_contract_syscall: () => contractCall('call'),
  library_call_syscall: () => contractCall('library'),
  send_message_to_l1_syscall: () =>
    syscall((a, _out, ctx) => {
      if (ctx.host) ctx.host.sendMessageToL1(big(a[2]), spanFelts(a[3]));
      else ctx.messages.push({ toAddress: big(a[2]), payload: spanFelts(a[3]) });
    }),
  replace_class_syscall: () =>
    syscall((a, _out, ctx) => {
      if (ctx.host) ctx.host.replaceClass(big(a[2]));
      else ctx.replacedClasses.push(big(a[2]));
    }),
  emit_event_syscall: () =>
    syscall((a, _out, ctx) => {
      if (ctx.host) ctx.host.emitEvent(spanFelts(a[2]), spanFelts(a[3]));
      else ctx.events.push({ keys: spanFelts(a[2]), data: spanFelts(a[3]) });
    }),
  /** `(gas, system, class_hash, salt, calldata, deploy_from_zero) → ok (gas, system, address, Span) | err`. */
  deploy_syscall: () =>
    syscall((a, out, ctx) => {
      const fromZero = (a[5] as EnumValue).tag === 1;
      const r = hostOf(ctx).deploy(big(a[2]), big(a[3]), spanFelts(a[4]), fromZero);
      out[2] = r.address;
      out[3] = spanOf(r.retdata);
    }),
  get_block_hash_syscall: () =>
    syscall((a, out, ctx) => {
      out[2] = hostOf(ctx).getBlockHash(big(a[2]));
    }),
  get_class_hash_at_syscall: () =>
    syscall((a, out, ctx) => {
      out[2] = hostOf(ctx).getClassHashAt(big(a[2]));
    }),
};
