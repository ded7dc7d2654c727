/** The deepest nesting of arrays and objects a JSON-RPC body may have (a batch counts one level). */
export const MAX_JSON_DEPTH = 128;

/** What one pass over a JSON-RPC body found. */
export interface JsonEnvelopeScan {
  /**
   * The nesting depth reached. The scan stops as soon as it passes `maxDepth`, so for a body
   * too deep this is `maxDepth + 1`.
   */
  readonly depth: number;
  /** The body nests deeper than `maxDepth` (the rest of the scan was skipped). */
  readonly tooDeep: boolean;
  /**
   * The source text of each numeric `id` member: index 0 for a single request object, the
   * element index for a batch. `undefined` where the id is absent or not a number (or the
   * element is not an object). With duplicate `id` members the last one counts, as in JSON.parse.
   */
  readonly numericIds: ReadonlyArray<string | undefined>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * One pass over a JSON-RPC body, before JSON.parse: measures the nesting depth (stopping
 * early once it exceeds `maxDepth`) and records the exact source text of the `id` member of
 * the top-level object, or of each object element of a top-level array, when that id is a
 * number. JSON.parse turns `1e400` into Infinity and a 30-digit integer into a double; this
 * text is what the response must echo.
 *
 * The scan is a charCodeAt loop; strings are skipped with `indexOf('"')` and a count of the
 * backslashes before each quote, so escaped quotes, brackets and `"id":` inside strings do not
 * confuse it. It never throws: on malformed JSON its findings are meaningless, and JSON.parse
 * reports the error.
 *
 * @example
 * scanJsonEnvelope('[{"id":1e400,"method":"m"},{"id":"a"}]')
 * // { depth: 2, tooDeep: false, numericIds: ['1e400', undefined] }
 */
export function scanJsonEnvelope(body: string, maxDepth: number = MAX_JSON_DEPTH): JsonEnvelopeScan {
  const n = body.length;
  const numericIds: Array<string | undefined> = [];
  let depth = 0;
  let deepest = 0;
  let topArray = false;
  // The depth of the objects whose `id` matters: 1 for a single request, 2 inside a batch.
  let targetDepth = 1;
  // The container open at targetDepth is an object (so its strings after `{` or `,` are keys).
  let targetIsObject = false;
  let expectKey = false;
  let idKey = false;
  let element = 0;
  let i = 0;
  while (i < n) {
    const c = body.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      i = skipString(body, start);
      if (expectKey) {
        expectKey = false;
        idKey = isIdKey(body, start, i - 1);
      }
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth > maxDepth) return { depth, tooDeep: true, numericIds };
      if (depth === 1) {
        topArray = c === OPEN_ARRAY;
        targetDepth = topArray ? 2 : 1;
      }
      if (depth === targetDepth) {
        targetIsObject = c === OPEN_OBJECT;
        expectKey = targetIsObject;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === targetDepth) {
        targetIsObject = false;
        expectKey = false;
      }
      depth--;
    } else if (c === COMMA) {
      if (depth === targetDepth) expectKey = targetIsObject;
      else if (depth === 1 && topArray) element++;
    } else if (c === COLON && idKey) {
      idKey = false;
      let j = i + 1;
      while (j < n && isSpace(body.charCodeAt(j))) j++;
      const first = body.charCodeAt(j);
      if (first === 0x2d || (first >= 0x30 && first <= 0x39)) {
        let k = j + 1;
        while (k < n && isNumberChar(body.charCodeAt(k))) k++;
        numericIds[element] = body.slice(j, k);
        i = k;
      } else {
        numericIds[element] = undefined;
        i = j;
      }
      continue;
    }
    i++;
  }
  return { depth: deepest, tooDeep: false, numericIds };
}

/** The index just past the closing quote of the string whose content starts at `start`. */
function skipString(s: string, start: number): number {
  let from = start;
  for (;;) {
    const q = s.indexOf('"', from);
    if (q === -1) return s.length;
    // The quote is escaped when an odd number of backslashes precede it.
    let b = q - 1;
    while (b >= start && s.charCodeAt(b) === BACKSLASH) b--;
    if (((q - 1 - b) & 1) === 0) return q + 1;
    from = q + 1;
  }
}

/** The key whose content is `s[start, end)` is `id` (possibly written with escapes, `"\u0069d"`). */
function isIdKey(s: string, start: number, end: number): boolean {
  const len = end - start;
  if (len === 2) return s.charCodeAt(start) === 0x69 && s.charCodeAt(start + 1) === 0x64;
  // The longest spelling of `id` is `\u0069\u0064` (12 characters); it needs a backslash.
  if (len < 3 || len > 12) return false;
  let escaped = false;
  for (let k = start; k < end; k++) if (s.charCodeAt(k) === BACKSLASH) escaped = true;
  if (!escaped) return false;
  try {
    return JSON.parse(s.slice(start - 1, end + 1)) === 'id';
  } catch {
    return false;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Digits, `-`, `+`, `.`, `e`, `E`: the characters of a JSON number token. */
function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}
