import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a client's sign-in attempts are counted under: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:10.0.0.1`), an IPv6 address as its /64 (one host usually holds a
 * whole /64, so counting single addresses would give it 2^64 tries), anything else as a short hash
 * (bounded, never an arbitrary string in storage).
 *
 * @example
 * throttleAddress('::ffff:10.0.0.1'); // '10.0.0.1'
 * throttleAddress('2001:db8:1:2:3:4:5:6'); // '2001:db8:1:2::/64'
 */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (isIPv6(ip)) return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
  return `h:${createHash('sha256').update(ip, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The eight groups of an IPv6 address, lowercase, without leading zeros (zone and IPv4 tail handled). */
function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g, 16).toString(16));
}
