import { SYSCALL_GAS } from '../gasCosts.js';
import { defaultValue } from '../defaultValue.js';
import { SierraRunError } from '../SierraRunError.js';
import type { ArrayValue, HandlerFactory, TypeRegistry, Value } from '../types.js';
import { syscall } from './syscall.js';

/** A `Span<T>` of the given values. */
const span = (xs: readonly Value[]): Value => [{ data: xs.slice(), start: 0, end: xs.length } satisfies ArrayValue];

/** `Box<ExecutionInfo>` types found by shape, with their TxInfo member count (7 for v1, more for v2/v3). */
function executionInfoTypes(registry: TypeRegistry): { box: number; txFields: number }[] {
  const found: { box: number; txFields: number }[] = [];
  const boxedStruct = (id: number): number[] | undefined => {
    const b = registry.get(id).info;
    if (b.kind !== 'wrapper' || b.wrapper !== 'Box') return undefined;
    const s = registry.get(b.inner).info;
    return s.kind === 'struct' ? s.members : undefined;
  };
  for (const t of registry.types) {
    const members = boxedStruct(t.id);
    if (members?.length !== 5) continue;
    const block = boxedStruct(members[0]!);
    const tx = boxedStruct(members[1]!);
    const felts = members.slice(2).every((m) => registry.get(m).info.kind === 'felt252');
    if (block?.length === 3 && tx && tx.length >= 7 && felts) found.push({ box: t.id, txFields: tx.length });
  }
  return found.sort((a, b) => a.txFields - b.txFields);
}

/**
 * `get_execution_info*_syscall`: `(gas, system) → (gas, system, Box<ExecutionInfo>)` from the host or
 * `ctx.executionInfo`, for `SYSCALL_GAS.get_execution_info` ('Out of gas' in the error branch when the counter
 * cannot pay).
 */
const factory =
  (version: 1 | 2 | 3): HandlerFactory =>
  (d, env) => {
    const candidates = executionInfoTypes(env.registry);
    const pick =
      candidates.length === 1
        ? candidates[0]
        : version === 1
          ? candidates.find((c) => c.txFields === 7)
          : version === 2
            ? candidates.find((c) => c.txFields > 7)
            : candidates[candidates.length - 1];
    if (!pick) throw new SierraRunError(`${d.genericId}: no ExecutionInfo type in the program`);
    const boxType = pick.box;
    return syscall(SYSCALL_GAS.get_execution_info, (_a, out, ctx) => {
      const info = defaultValue(env.registry, boxType) as Value[];
      const block = info[0] as Value[];
      const tx = info[1] as Value[];
      const e = ctx.host ? ctx.host.executionInfo() : ctx.executionInfo;
      block[0] = e.blockNumber ?? 0n;
      block[1] = e.blockTimestamp ?? 0n;
      block[2] = e.sequencerAddress ?? 0n;
      tx[0] = e.version ?? 0n;
      tx[1] = e.accountAddress ?? 0n;
      tx[2] = e.maxFee ?? 0n;
      tx[3] = span(e.signature ?? []);
      tx[4] = e.transactionHash ?? 0n;
      tx[5] = e.chainId ?? 0n;
      tx[6] = e.nonce ?? 0n;
      if (tx.length > 7) {
        tx[7] = span((e.resourceBounds ?? []).map((r) => [r.resource, r.maxAmount, r.maxPricePerUnit]));
        tx[8] = e.tip ?? 0n;
        tx[9] = span(e.paymasterData ?? []);
        tx[10] = e.nonceDataAvailabilityMode ?? 0n;
        tx[11] = e.feeDataAvailabilityMode ?? 0n;
        tx[12] = span(e.accountDeploymentData ?? []);
      }
      if (tx.length > 13) tx[13] = span(e.proofFacts ?? []);
      info[2] = e.callerAddress ?? 0n;
      info[3] = e.contractAddress ?? 0n;
      info[4] = e.entryPointSelector ?? 0n;
      out[2] = info;
    });
  };

/**
 * Handlers of `get_execution_info_syscall` / `_v2` / `_v3`: the execution info (found in the program's types by
 * its shape) with the fields of the host's `executionInfo()` or else `options.executionInfo`, and zeros or empty
 * spans for the fields not given (v2/v3 fields only in the v2/v3 shapes, proof facts only in v3).
 */
export const EXECUTION_INFO_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  get_execution_info_syscall: factory(1),
  get_execution_info_v2_syscall: factory(2),
  get_execution_info_v3_syscall: factory(3),
};
