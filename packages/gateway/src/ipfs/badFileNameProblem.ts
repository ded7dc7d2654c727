/** At most this many characters of a refused name are quoted back. */
const QUOTE_LIMIT = 64;

/**
 * Why an uploaded file name (as sent in a multipart part, before decoding) is refused, or
 * undefined when it is fine: an absolute path, or a `..` segment, in the name as sent or in any
 * of its percent-decodings (the node may decode a name once or twice: `filename*` then
 * `url.QueryUnescape`). `get` would otherwise write tar entries outside the archive's root.
 *
 * @example
 * badFileNameProblem('dir%2F..%2F..%2Fetc%2Fpasswd') // 'file name "dir/../../etc/passwd" has a ".." segment'
 * badFileNameProblem('planets%2Fmars.txt') // undefined
 */
export function badFileNameProblem(name: string): string | undefined {
  let current = name;
  for (let round = 0; round < 4; round++) {
    const problem = pathProblem(current);
    if (problem !== undefined) return `file name ${quote(current)} ${problem}`;
    const next = decodeOnce(current);
    if (next === current) return undefined;
    current = next;
  }
  return `file name ${quote(name)} is percent-encoded too many times`;
}

function pathProblem(name: string): string | undefined {
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(name)) return 'is an absolute path';
  if (name.split(/[/\\]/).some((s) => s === '..')) return 'has a ".." segment';
  return undefined;
}

/** One round of percent-decoding (`+` as a space, as Go's `url.QueryUnescape`); unchanged when it is not valid. */
function decodeOnce(s: string): string {
  try {
    return decodeURIComponent(s.replaceAll('+', ' '));
  } catch {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  }
}

function quote(name: string): string {
  return JSON.stringify(name.length > QUOTE_LIMIT ? `${name.slice(0, QUOTE_LIMIT)}…` : name);
}
