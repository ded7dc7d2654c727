import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type StarknetSpecParamFields,
  type StarknetTxnType,
  starknetSpecMethods,
  starknetSpecParamFields,
} from './index.js';

// The table is derived here again from the published OpenRPC documents (../shared/fixtures, read in place): for
// every param of every method, the schema is followed through its $refs (across documents too); an object schema
// (its allOf parts merged) gives the union of their `required` lists, an array of them `each`, and a oneOf of
// broadcasted transactions the list of each type. Block ids (a oneOf of two objects and a tag) are left out.
const SPEC_DIR = new URL('../../../../shared/fixtures/starknet-specs-0.10.2/api/', import.meta.url);
const FILES = [
  'starknet_api_openrpc.json',
  'starknet_write_api.json',
  'starknet_trace_api_openrpc.json',
  'starknet_executables.json',
  'starknet_ws_api.json',
];
type Schema = Record<string, unknown>;
const docs = new Map<string, { methods: { name: string; params: { name: string; schema: Schema }[] }[] }>(
  FILES.map((f) => [f, JSON.parse(readFileSync(new URL(f, SPEC_DIR), 'utf8'))]),
);

/** The schema a `$ref` names, with the document it lives in. */
function follow(schema: Schema, file: string): { schema: Schema; file: string } {
  let s = schema;
  let f = file;
  while (typeof s.$ref === 'string') {
    const [path, fragment] = (s.$ref as string).split('#') as [string, string];
    if (path !== '') f = path.replace(/^\.\/(api\/)?/, '');
    let node: unknown = docs.get(f);
    for (const part of fragment.split('/').filter(Boolean)) node = (node as Schema)[part];
    s = node as Schema;
  }
  return { schema: s, file: f };
}

/** The fields an object schema requires (its allOf parts merged), or undefined when it is not an object. */
function requiredOf(schema: Schema, file: string): string[] | undefined {
  const { schema: s, file: f } = follow(schema, file);
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as Schema[]).map((p) => requiredOf(p, f));
    if (parts.some((p) => p === undefined)) return undefined;
    return [...new Set(parts.flat() as string[])];
  }
  if (s.type === 'object' || s.properties !== undefined) return [...((s.required as string[] | undefined) ?? [])];
  return undefined;
}

/** The transaction type an object schema fixes (`type: { enum: [T] }`), through allOf and $ref. */
function txnTypeOf(schema: Schema, file: string): StarknetTxnType | undefined {
  const { schema: s, file: f } = follow(schema, file);
  const own = ((s.properties as Schema | undefined)?.type as Schema | undefined)?.enum as string[] | undefined;
  if (own?.length === 1) return own[0] as StarknetTxnType;
  for (const p of (s.allOf as Schema[] | undefined) ?? []) {
    const t = txnTypeOf(p, f);
    if (t) return t;
  }
  return undefined;
}

function derive(schema: Schema, file: string): StarknetSpecParamFields | undefined {
  const { schema: s, file: f } = follow(schema, file);
  const each = s.type === 'array';
  const item = each ? follow(s.items as Schema, f) : { schema: s, file: f };
  const alternatives = item.schema.oneOf as Schema[] | undefined;
  if (alternatives) {
    const byType: Partial<Record<StarknetTxnType, string[]>> = {};
    for (const alt of alternatives) {
      const type = txnTypeOf(alt, item.file);
      const required = requiredOf(alt, item.file);
      if (!type || !required) return undefined; // not transactions (a block id)
      byType[type] = required;
    }
    return { kind: 'transaction', each, required: byType };
  }
  const type = requiredOf(item.schema, item.file) && txnTypeOf(item.schema, item.file);
  const required = requiredOf(item.schema, item.file);
  if (!required) return undefined;
  if (type) return { kind: 'transaction', each, required: { [type]: required } };
  return { kind: 'object', each, required };
}

const derived: Record<string, Record<string, StarknetSpecParamFields>> = {};
for (const [file, doc] of docs) {
  for (const method of doc.methods) {
    // requests only (the WebSocket notifications are the server's)
    if (!Object.hasOwn(starknetSpecMethods, method.name.replace(/^starknet_/, ''))) continue;
    for (const param of method.params) {
      const fields = derive(param.schema, file);
      if (!fields) continue;
      const name = method.name.replace(/^starknet_/, '');
      derived[name] ??= {};
      derived[name][param.name] = fields;
    }
  }
}

/** Lists compared as sets (the order of a `required` list means nothing). */
const sorted = (table: object) =>
  JSON.parse(
    JSON.stringify(table, (_k, v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v].sort() : v)),
  );

describe('starknetSpecParamFields', () => {
  it('is the table the published documents give: no field required that the spec leaves optional, none missing', () => {
    expect(sorted(starknetSpecParamFields)).toEqual(sorted(derived));
  });

  it('leaves getEvents from_block and to_block optional and requires chunk_size', () => {
    expect(derived.getEvents?.filter).toEqual({ kind: 'object', each: false, required: ['chunk_size'] });
  });
});
