import { timingSafeEqual } from 'node:crypto';
import { scryptAsync } from './hashPassword.js';

const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/**
 * Checks a password against a stored `hashPassword` result, with the parameters stored in it,
 * comparing in constant time. A malformed stored value is false, never an exception.
 *
 * @example
 * if (!(await verifyPassword(input, user.passwordHash))) throw new Error('wrong email or password');
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // refuse parameters that are not a power of two or would take unbounded memory
  if (N < 2 || (N & (N - 1)) !== 0 || N > 1_048_576 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(m[4]!, 'base64url'), N, r, p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
