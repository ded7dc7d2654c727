/** At most this many characters of a refused name are quoted back. */
const QUOTE_LIMIT = 64;

/**
 * Why an uploaded file name (as sent in a multipart part, before decoding) is refused, or
 * undefined when it is fine. The node names an upload as Kubo does, `path.Clean("/" + name)`
 * without the leading `/` (so `/foo/bar.txt` is `foo/bar.txt`, which kubo-rpc-client's
 * `globSource` sends for every directory upload): absolute names are accepted. Refused are names
 * that, read as a relative path, climb above the upload's root once cleaned (`a/../../x`: Kubo
 * would silently drop the `..`, an archive extractor would not), with `\` read as a separator
 * too, and Windows-absolute names (`\x`, `C:\x`, `C:/x`), in the name as sent or in any of its
 * percent-decodings (the node may decode a name once or twice: `filename*` then
 * `url.QueryUnescape`): `get` would otherwise write tar entries outside the archive's root.
 *
 * @example
 * badFileNameProblem('dir%2F..%2F..%2Fetc%2Fpasswd') // 'file name "dir/../../etc/passwd" has a ".." segment above the upload's root'
 * badFileNameProblem('%2Fplanets%2Fmars.txt') // undefined (the node stores planets/mars.txt)
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
  if (name.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(name)) return 'is a Windows absolute path';
  let depth = 0;
  for (const segment of name.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') depth++;
    else if (depth === 0) return 'has a ".." segment above the upload\'s root';
    else depth--;
  }
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
