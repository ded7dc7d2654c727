/**
 * Formats an amount in the smallest unit (FRI or wei, 18 decimals) as a decimal token amount.
 *
 * @param amount - The amount.
 * @param symbol - The token symbol to append.
 * @returns E.g. "0.000123 STRK".
 */
export function formatUnits(amount: bigint, symbol = 'STRK'): string {
  const neg = amount < 0n;
  const abs = neg ? -amount : amount;
  const whole = abs / 10n ** 18n;
  const frac = (abs % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''} ${symbol}`;
}

/**
 * Current unix time in seconds.
 *
 * @returns Seconds since the epoch.
 */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
