/**
 * eth_getProof: storage keys are forwarded left-padded to 32 bytes (the params parser does
 * that); each `storageProof[i].key` in the answer is the key the client asked for.
 *
 * @example
 * restoreProofKeys({ storageProof: [{ key: '0x00…00', value: '0x1', proof: [] }] }, ['0xabc', ['0x0'], 'latest'])
 * // storageProof[0].key === '0x0'
 */
export function restoreProofKeys(result: unknown, clientParams: readonly unknown[]): unknown {
  const keys = clientParams[1];
  if (typeof result !== 'object' || result === null || !Array.isArray(keys)) return result;
  const r = result as { storageProof?: unknown };
  if (!Array.isArray(r.storageProof)) return result;
  return {
    ...r,
    storageProof: r.storageProof.map((entry, i) =>
      typeof entry === 'object' && entry !== null && typeof keys[i] === 'string' ? { ...entry, key: keys[i] } : entry,
    ),
  };
}
