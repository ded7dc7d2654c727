import { SYSCALL_GAS } from '../gasCosts.js';
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
import { keccakPermutation } from './keccakPermutation.js';
import { SECP256K1, SECP256R1, type SecpCurve, type SecpPoint } from './secpCurve.js';
import { sha256Compress } from './sha256Compress.js';
import { sha512Compress } from './sha512Compress.js';
import { felts, shortString, syscall } from './syscall.js';

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

const spanOf = (xs: readonly bigint[]): Value => [felts(xs)];

/** The Starknet OS's error felts. */
const INVALID_ARGUMENT = shortString('Invalid argument');
const INVALID_INPUT_LENGTH = shortString('Invalid input length');
const fail = (felt: bigint, message: string): never => {
  throw new SyscallFailure([felt], message);
};

const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
/** A `u256` value (`[low, high]`) as a bigint. */
const u256 = (v: Value | undefined): bigint => {
  const [low, high] = v as [bigint, bigint];
  return low + (high << 128n);
};
const toU256 = (x: bigint): Value => [x & MASK128, x >> 128n];
/** `Option<T>`: `Some` is variant 0, `None` variant 1. */
const some = (v: Value): EnumValue => ({ tag: 0, value: v });
const NONE: EnumValue = Object.freeze({ tag: 1, value: Object.freeze([]) as unknown as Value[] });
const words = (v: Value | undefined, n: number, what: string): bigint[] => {
  const w = v as bigint[];
  if (!Array.isArray(w) || w.length !== n) throw new SyscallFailure([INVALID_ARGUMENT], `${what}: ${n} words expected`);
  return w;
};

/**
 * `keccak_syscall(Span<u64>) → u256`: the input must be whole 1088-bit blocks (17 words, already padded by the
 * corelib), else 'Invalid input length'; each block is absorbed into the Keccak state, then permuted; the result is
 * the first 4 lanes as a little-endian u256 (`low = lane0 + lane1·2⁶⁴`, `high = lane2 + lane3·2⁶⁴`), as the OS does.
 */
const keccakSyscall = (input: readonly bigint[]): Value => {
  if (input.length % 17 !== 0) fail(INVALID_INPUT_LENGTH, 'Invalid input length');
  const state = new Array<bigint>(25).fill(0n);
  for (let i = 0; i < input.length; i += 17) {
    for (let j = 0; j < 17; j++) state[j] = state[j]! ^ (input[i + j]! & MASK64);
    keccakPermutation(state);
  }
  return [state[0]! | (state[1]! << 64n), state[2]! | (state[3]! << 64n)];
};

/** A `Secp256k1Point` / `Secp256r1Point` value is `[x, y]`, `[0, 0]` being the point at infinity. */
const point = (v: Value | undefined): SecpPoint => v as unknown as SecpPoint;
const pointValue = (p: SecpPoint): Value => [p[0], p[1]];
/** Coordinates must be below the field prime, else the syscall fails with 'Invalid argument'. */
const coordinate = (curve: SecpCurve, v: Value | undefined): bigint => {
  const x = u256(v);
  if (x >= curve.p) fail(INVALID_ARGUMENT, 'Invalid argument');
  return x;
};

/** The five syscalls of a secp256 curve, keyed by their generic libfunc id. */
const secpHandlers = (prefix: 'secp256k1' | 'secp256r1', curve: SecpCurve): Record<string, HandlerFactory> => ({
  /** `(x: u256, y: u256) → Option<Point>`: None off the curve; (0, 0) is the point at infinity. */
  [`${prefix}_new_syscall`]: () =>
    syscall(SYSCALL_GAS[`${prefix}_new`], (a, out) => {
      const x = coordinate(curve, a[2]);
      const y = coordinate(curve, a[3]);
      out[2] = curve.isOnCurve(x, y) ? some([x, y]) : NONE;
    }),
  [`${prefix}_add_syscall`]: () =>
    syscall(SYSCALL_GAS[`${prefix}_add`], (a, out) => {
      out[2] = pointValue(curve.add(point(a[2]), point(a[3])));
    }),
  /** `(p, m: u256) → m·p`. */
  [`${prefix}_mul_syscall`]: () =>
    syscall(SYSCALL_GAS[`${prefix}_mul`], (a, out) => {
      out[2] = pointValue(curve.mul(point(a[2]), u256(a[3])));
    }),
  /** `(x: u256, y_parity: bool) → Option<Point>`: the point whose y has that parity, None when x is on no point. */
  [`${prefix}_get_point_from_x_syscall`]: () =>
    syscall(SYSCALL_GAS[`${prefix}_get_point_from_x`], (a, out) => {
      const x = coordinate(curve, a[2]);
      const p = curve.pointFromX(x, (a[3] as EnumValue).tag === 1);
      out[2] = p ? some(pointValue(p)) : NONE;
    }),
  /** `(p) → (x: u256, y: u256)`; the point at infinity gives (0, 0). */
  [`${prefix}_get_xy_syscall`]: () =>
    syscall(SYSCALL_GAS[`${prefix}_get_xy`], (a, out) => {
      const [x, y] = point(a[2]);
      out[2] = toU256(x);
      out[3] = toU256(y);
    }),
});

/** The length of a `Span<felt252>` argument. */
const spanLength = (v: Value | undefined): number => {
  const s = (v as Value[])[0] as ArrayValue;
  return s.end - s.start;
};
/** A syscall cost with a part per felt of the calldata span at argument `at` (deploy, meta_tx_v0). */
const withCalldata =
  (base: number, at: number) =>
  (a: readonly Value[]): number =>
    base + SYSCALL_GAS.calldataFelt * spanLength(a[at]);
/** keccak: a base cost, then one round per whole 17-word block. */
const keccakGas = (a: readonly Value[]): number =>
  SYSCALL_GAS.keccak + SYSCALL_GAS.keccakRound * Math.floor(spanLength(a[2]) / 17);

/** The host, or a failure of the syscall with 'SYSCALL_NOT_SUPPORTED' when the run has none. */
const hostOf = (ctx: RunContext): StarknetHost => {
  if (!ctx.host) throw new SyscallFailure([SYSCALL_NOT_SUPPORTED]);
  return ctx.host;
};

/** `(gas, system, target, selector, calldata) → ok (gas, system, Span result) | err (gas, system, revert array)`. */
const contractCall = (kind: 'call' | 'library'): LibfuncHandler =>
  syscall(kind === 'call' ? SYSCALL_GAS.call_contract : SYSCALL_GAS.library_call, (a, out, ctx, gas) => {
    const target = big(a[2]);
    const selector = big(a[3]);
    const calldata = spanFelts(a[4]);
    if (ctx.host) {
      out[2] = spanOf(
        kind === 'call'
          ? ctx.host.callContract(target, selector, calldata, gas)
          : ctx.host.libraryCall(target, selector, calldata, gas),
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
 * conversions) and of the syscalls: storage, events, L1 messages, replace class, contract/library calls, deploy,
 * block hash, class hash, meta transactions (through the host), and the computing ones (keccak, SHA-256 and SHA-512
 * blocks, secp256k1 and secp256r1 points: new, add, mul, get_point_from_x, get_xy), which answer themselves. With a {@link StarknetHost} in the run every syscall goes to it (a
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
    syscall(SYSCALL_GAS.storage_read, (a, out, ctx) => {
      out[2] = ctx.host ? ctx.host.storageRead(big(a[2]), big(a[3])) : (ctx.storage.get(big(a[3])) ?? 0n);
    }),
  storage_write_syscall: () =>
    syscall(SYSCALL_GAS.storage_write, (a, _out, ctx) => {
      if (ctx.host) ctx.host.storageWrite(big(a[2]), big(a[3]), big(a[4]));
      else ctx.storage.set(big(a[3]), big(a[4]));
    }),
  call_contract_syscall: () => contractCall('call'),
  library_call_syscall: () => contractCall('library'),
  send_message_to_l1_syscall: () =>
    syscall(SYSCALL_GAS.send_message_to_l1, (a, _out, ctx) => {
      if (ctx.host) ctx.host.sendMessageToL1(big(a[2]), spanFelts(a[3]));
      else ctx.messages.push({ toAddress: big(a[2]), payload: spanFelts(a[3]) });
    }),
  replace_class_syscall: () =>
    syscall(SYSCALL_GAS.replace_class, (a, _out, ctx) => {
      if (ctx.host) ctx.host.replaceClass(big(a[2]));
      else ctx.replacedClasses.push(big(a[2]));
    }),
  emit_event_syscall: () =>
    syscall(SYSCALL_GAS.emit_event, (a, _out, ctx) => {
      if (ctx.host) ctx.host.emitEvent(spanFelts(a[2]), spanFelts(a[3]));
      else ctx.events.push({ keys: spanFelts(a[2]), data: spanFelts(a[3]) });
    }),
  /** `(gas, system, class_hash, salt, calldata, deploy_from_zero) → ok (gas, system, address, Span) | err`. */
  deploy_syscall: () =>
    syscall(withCalldata(SYSCALL_GAS.deploy, 4), (a, out, ctx, gas) => {
      const fromZero = (a[5] as EnumValue).tag === 1;
      const r = hostOf(ctx).deploy(big(a[2]), big(a[3]), spanFelts(a[4]), fromZero, gas);
      out[2] = r.address;
      out[3] = spanOf(r.retdata);
    }),
  get_block_hash_syscall: () =>
    syscall(SYSCALL_GAS.get_block_hash, (a, out, ctx) => {
      out[2] = hostOf(ctx).getBlockHash(big(a[2]));
    }),
  get_class_hash_at_syscall: () =>
    syscall(SYSCALL_GAS.get_class_hash_at, (a, out, ctx) => {
      out[2] = hostOf(ctx).getClassHashAt(big(a[2]));
    }),
  /** `(address, selector, calldata, signature) → ok (gas, system, Span result) | err`, answered by the host. */
  meta_tx_v0_syscall: () =>
    syscall(withCalldata(SYSCALL_GAS.meta_tx_v0, 4), (a, out, ctx, gas) => {
      const host = hostOf(ctx);
      if (!host.metaTxV0) throw new SyscallFailure([SYSCALL_NOT_SUPPORTED]);
      out[2] = spanOf(host.metaTxV0(big(a[2]), big(a[3]), spanFelts(a[4]), spanFelts(a[5]), gas));
    }),
  keccak_syscall: () =>
    syscall(keccakGas, (a, out) => {
      out[2] = keccakSyscall(spanFelts(a[2]));
    }),
  /** `(Sha256StateHandle, Box<[u32; 16]>) → Sha256StateHandle`: the handle is the boxed state, `[u32; 8]`. */
  sha256_process_block_syscall: () =>
    syscall(SYSCALL_GAS.sha256_process_block, (a, out) => {
      const state = words(a[2], 8, 'sha256 state').map(Number);
      const block = words(a[3], 16, 'sha256 block').map(Number);
      out[2] = sha256Compress(state, block).map(BigInt);
    }),
  /** `(Sha512StateHandle, Box<[u64; 16]>) → Sha512StateHandle`: the handle is the boxed state, `[u64; 8]`. */
  sha512_process_block_syscall: () =>
    syscall(SYSCALL_GAS.sha512_process_block, (a, out) => {
      out[2] = sha512Compress(words(a[2], 8, 'sha512 state'), words(a[3], 16, 'sha512 block'));
    }),
  ...secpHandlers('secp256k1', SECP256K1),
  ...secpHandlers('secp256r1', SECP256R1),
};
