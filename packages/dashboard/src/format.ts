/** Display helpers: numbers, bytes, times. */
export const num = (n: number) => new Intl.NumberFormat('en-US').format(Math.round(n));

export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

export const dateTime = (iso: string) =>
  `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })} UTC`;

export const date = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** Midnight UTC today, in epoch ms (daily credits reset then). */
export function startOfUtcDay(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/**
 * An error code as the request explorer and the usage charts show it. IPFS answers are Kubo's,
 * with no JSON-RPC code: the usage store keeps their HTTP status, negated (-404), shown as
 * "Kubo error". Without the transport (the usage charts), a code from -599 to -100 is one of those.
 */
export function errorCodeLabel(code: number, transport?: string): string {
  const kubo = transport === undefined ? code <= -100 && code >= -599 : transport === 'ipfs';
  return kubo ? 'Kubo error' : String(code);
}
