/**
 * A copy of an OpenRPC schema fragment of starknet-specs in which every `$ref` names its document absolutely under
 * `base` (the documents refer to each other by relative path: `./api/<file>` from the wallet API, `./<file>` between
 * the api documents, `#/…` within one) and `oneOf` reads as `anyOf`: the documents' alternatives overlap (a confirmed
 * block also matches the pre-confirmed block schema, a FELT is also a NUM_AS_HEX, an empty array is both forms of
 * wallet_getPermissions' result), so with `oneOf` no real answer would validate.
 *
 * @example
 * ajv.addSchema({ $id: `${base}${file}`, components: absoluteRefs(doc.components, file, base) });
 */
export function absoluteRefs(node: unknown, file: string, base: string): unknown {
  if (Array.isArray(node)) return node.map((n) => absoluteRefs(n, file, base));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'oneOf') out.anyOf = absoluteRefs(v, file, base);
    else if (k === '$ref' && typeof v === 'string') {
      const [path, fragment] = v.split('#') as [string, string | undefined];
      const target = path === '' ? file : path.replace(/^\.\/(api\/)?/, '');
      out[k] = `${base}${target}#${fragment ?? ''}`;
    } else out[k] = absoluteRefs(v, file, base);
  }
  return out;
}
