import type { ArrayValue, HandlerFactory, LibfuncHandler, Value } from '../types.js';
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
/** `(gas, system, target, selector, calldata) → ok (gas, system, Span result) | err (gas, system, revert array)`. */
const contractCall =
  (kind: 'call' | 'library'): LibfuncHandler =>
  (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    const answer = ctx.callContract
      ? ctx.callContract({ kind, target: big(a[2]), selector: big(a[3]), calldata: spanFelts(a[4]) })
      : { revert: [NOT_SUPPORTED] };
    if (Array.isArray(answer)) {
      out[2] = [{ data: answer.slice(), start: 0, end: answer.length } satisfies ArrayValue];
      return 0;
    }
    out[2] = { data: answer.revert.slice(), start: 0, end: answer.revert.length } satisfies ArrayValue;
    return 1;
  };

/**
 * Handlers of Starknet felt-like types (contract addresses, class hashes, storage addresses, bytes31: constants,
 * conversions) and of the storage, event, L1 message, replace class and contract/library call syscalls, run against the run's
 * in-memory storage, event and message lists and `callContract` (no gas taken).
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
  storage_read_syscall: () => (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    out[2] = ctx.storage.get(big(a[3])) ?? 0n;
    return 0;
  },
  storage_write_syscall: () => (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    ctx.storage.set(big(a[3]), big(a[4]));
    return 0;
  },
  call_contract_syscall: () => contractCall('call'),
  library_call_syscall: () => contractCall('library'),
  send_message_to_l1_syscall: () => (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    ctx.messages.push({ toAddress: big(a[2]), payload: spanFelts(a[3]) });
    return 0;
  },
  replace_class_syscall: () => (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    ctx.replacedClasses.push(big(a[2]));
    return 0;
  },
  emit_event_syscall: () => (a, out, ctx) => {
    out[0] = a[0]!;
    out[1] = a[1]!;
    ctx.events.push({ keys: spanFelts(a[2]), data: spanFelts(a[3]) });
    return 0;
  },
};
