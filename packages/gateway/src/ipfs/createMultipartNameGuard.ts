import { badFileNameProblem } from './badFileNameProblem.js';

/** Part headers larger than this are refused (a name is at most a few KiB). */
const MAX_PART_HEADERS = 64 * 1024;
const EMPTY = Buffer.alloc(0);
const CRLF = Buffer.from('\r\n');

/** Checks a multipart upload's part headers as the body streams past. */
export interface MultipartNameGuard {
  /** Looks at the next body chunk (before it is forwarded); a problem stops the upload. */
  inspect(chunk: Buffer): string | undefined;
}

/**
 * A streaming check of the file names of a `multipart/form-data` upload (`add`): every part's
 * Content-Disposition `filename` / `filename*`, in every percent-decoding, must stay within the
 * upload's root once cleaned ({@link badFileNameProblem}; absolute names are fine: the node
 * cleans them as Kubo does). Bodies are scanned with
 * `Buffer.indexOf` for the boundary, without copying file content. Undefined when the content
 * type is not multipart (the upstream refuses it then).
 *
 * @example
 * const guard = createMultipartNameGuard(req.headers['content-type']);
 * const problem = guard?.inspect(chunk); // 'file name "../x" has a ".." segment'
 */
export function createMultipartNameGuard(contentType: string | undefined): MultipartNameGuard | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!contentType?.toLowerCase().startsWith('multipart/') || boundary === undefined) return undefined;
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;
  let mode: 'body' | 'after' | 'headers' | 'done' = 'body';
  // the first delimiter has no CRLF before it: start as if one had just been read
  let tail: Buffer = CRLF;
  let pending: Buffer = EMPTY;

  return {
    inspect(chunk) {
      let data = chunk;
      while (data.length > 0) {
        if (mode === 'done') return undefined;
        if (mode === 'body') {
          if (tail.length > 0) {
            const joined = Buffer.concat([tail, data.subarray(0, keep)]);
            const i = joined.indexOf(delimiter);
            if (i >= 0) {
              data = data.subarray(i + delimiter.length - tail.length);
              tail = EMPTY;
              mode = 'after';
              continue;
            }
          }
          const i = data.indexOf(delimiter);
          if (i >= 0) {
            data = data.subarray(i + delimiter.length);
            tail = EMPTY;
            mode = 'after';
            continue;
          }
          tail =
            data.length >= keep
              ? Buffer.from(data.subarray(data.length - keep))
              : Buffer.concat([tail, data]).subarray(-keep);
          return undefined;
        }
        pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
        data = EMPTY;
        if (mode === 'after') {
          if (pending.length < 2) return undefined;
          if (pending[0] === 0x2d && pending[1] === 0x2d) {
            mode = 'done';
            return undefined;
          }
          const nl = pending.indexOf(CRLF);
          if (nl < 0)
            return pending.length > 1024 ? 'malformed multipart body: no line end after a boundary' : undefined;
          data = pending.subarray(nl + 2);
          pending = EMPTY;
          mode = 'headers';
          continue;
        }
        // headers
        if (pending.length >= 2 && pending[0] === 0x0d && pending[1] === 0x0a) {
          data = pending.subarray(2); // a part without headers
        } else {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) {
            return pending.length > MAX_PART_HEADERS
              ? `multipart part headers larger than ${MAX_PART_HEADERS} bytes`
              : undefined;
          }
          const problem = partHeadersProblem(pending.subarray(0, end).toString('utf8'));
          if (problem !== undefined) return problem;
          data = pending.subarray(end + 4);
        }
        pending = EMPTY;
        mode = 'body';
      }
      return undefined;
    },
  };
}

function partHeadersProblem(text: string): string | undefined {
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const re = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const param = m[1]!.toLowerCase();
      if (param !== 'filename' && param !== 'filename*') continue;
      let value = m[2] === undefined ? (m[3] ?? '').trim() : m[2].replace(/\\(.)/g, '$1');
      if (param === 'filename*') value = /^[^']*'[^']*'(.*)$/.exec(value)?.[1] ?? value;
      const problem = badFileNameProblem(value);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
