/** Pre-serialised JSON fragments, spliced into responses without re-serialising them. */

/** A JSON text to be embedded verbatim in a response. */
export class RawJson {
  constructor(readonly text: string) {}
}

const jsonCache = new WeakMap<object, string>();

/** The JSON text of an immutable object, computed once. */
export function cachedJson(value: object): string {
  let text = jsonCache.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    jsonCache.set(value, text);
  }
  return text;
}

const MARK = '\u0000raw:';

/** JSON.stringify that splices {@link RawJson} fragments in place. */
export function serializeJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `${MARK}${raws.length - 1}`;
    }
    return v;
  });
  if (raws.length === 0) return text;
  return text.replace(/"\\u0000raw:(\d+)"/g, (_m, i: string) => raws[Number(i)]!);
}
