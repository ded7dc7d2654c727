/**
 * The 413 message of the storage quota; `needed` is what a refused pin would add.
 *
 * @example
 * storedLimitMessage(900_000, 1_000_000) // 'storage limit reached: this API key has stored 900000 of 1000000 bytes allowed'
 */
export function storedLimitMessage(used: number, limit: number, needed?: number): string {
  const base = `storage limit reached: this API key has stored ${used} of ${limit} bytes allowed`;
  return needed === undefined ? base : `${base}; pinning this needs ${needed} more`;
}
