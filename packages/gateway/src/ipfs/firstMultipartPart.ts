import { IpfsCommandError } from './IpfsCommandError.js';

/**
 * The content of the first part of a buffered `multipart/form-data` body (object/put takes one
 * file). Throws a 400 {@link IpfsCommandError} when the body is not multipart or has no part.
 *
 * @example
 * firstMultipartPart(body, 'multipart/form-data; boundary=xyz')
 */
export function firstMultipartPart(body: Buffer, contentType: string | undefined): Buffer {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!contentType?.toLowerCase().startsWith('multipart/') || boundary === undefined) {
    throw new IpfsCommandError(400, 'file argument "data" is required (send multipart/form-data)', 1);
  }
  const delimiter = Buffer.from(`--${boundary}`);
  const start = body.indexOf(delimiter);
  if (start < 0) throw new IpfsCommandError(400, 'file argument "data" is required', 1);
  const headersEnd = body.indexOf('\r\n\r\n', start + delimiter.length);
  if (headersEnd < 0) throw new IpfsCommandError(400, 'file argument "data" is required', 1);
  const contentStart = headersEnd + 4;
  const end = body.indexOf(Buffer.from(`\r\n--${boundary}`), contentStart);
  if (end < 0) throw new IpfsCommandError(400, 'malformed multipart body: no closing boundary', 1);
  return body.subarray(contentStart, end);
}
