import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { type StarknetApi, type StarknetSpecMethodName, starknetSpecMethods } from '../starknetSpecMethods.js';
import { absoluteRefs } from './absoluteRefs.js';
import { describeSchemaErrors as describe } from './describeSchemaErrors.js';

/** The OpenRPC document of each part of the specification. */
const DOCUMENTS: Record<StarknetApi, string> = {
  read: 'starknet_api_openrpc.json',
  write: 'starknet_write_api.json',
  trace: 'starknet_trace_api_openrpc.json',
  executables: 'starknet_executables.json',
  ws: 'starknet_ws_api.json',
};
const BASE = 'https://starknet-spec.invalid/';

interface OpenRpcParam {
  name: string;
  required?: boolean;
  schema: unknown;
}
interface OpenRpcMethod {
  name: string;
  params: OpenRpcParam[];
  result?: { schema: unknown };
  errors?: { $ref: string }[];
}

/** Checks requests and results against the published specification's JSON schemas. */
export interface SpecValidator {
  /** Errors of a named-params request (undefined when the spec allows it). */
  checkParams(method: StarknetSpecMethodName, params: Record<string, unknown>): string | undefined;
  /** Errors of a result (undefined when it matches the method's result schema). */
  checkResult(method: StarknetSpecMethodName, result: unknown): string | undefined;
  /** The error codes the spec lists for the method. */
  errorCodes(method: StarknetSpecMethodName): number[];
}

/**
 * Builds a validator from the specification's OpenRPC documents in `apiDir` (the `api/` folder
 * of starknet-specs), with Ajv (JSON Schema draft-07 semantics, as the documents use). Each
 * method's params are checked as one object schema (their names, the required ones), results
 * against the result schema, and `errorCodes` lists the codes of the errors the method may give.
 *
 * @example
 * const spec = createSpecValidator('../shared/fixtures/starknet-specs-0.10.2/api');
 * spec.checkResult('blockNumber', 12); // undefined: valid
 */
export function createSpecValidator(apiDir: string): SpecValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const methods = new Map<string, { method: OpenRpcMethod; file: string; errorCodes: number[] }>();
  const docs = new Map<string, { components?: { errors?: Record<string, { code: number }> } }>();
  for (const file of Object.values(DOCUMENTS)) {
    const doc = JSON.parse(readFileSync(join(apiDir, file), 'utf8')) as {
      methods: OpenRpcMethod[];
      components?: Record<string, unknown>;
    };
    docs.set(file, doc as never);
    ajv.addSchema({ $id: `${BASE}${file}`, components: absoluteRefs(doc.components ?? {}, file, BASE) });
    for (const method of doc.methods) methods.set(method.name, { method, file, errorCodes: [] });
  }
  for (const entry of methods.values()) {
    for (const e of entry.method.errors ?? []) {
      const [path, fragment] = e.$ref.split('#') as [string, string];
      const file = path === '' ? entry.file : path.replace(/^\.\/(api\/)?/, '');
      const name = fragment.split('/').pop()!;
      const code = docs.get(file)?.components?.errors?.[name]?.code;
      if (code !== undefined) entry.errorCodes.push(code);
    }
  }
  const paramValidators = new Map<string, ValidateFunction>();
  const resultValidators = new Map<string, ValidateFunction>();
  const entryOf = (method: StarknetSpecMethodName) => {
    const entry = methods.get(`starknet_${method}`);
    if (!entry) throw new Error(`starknet_${method} is not in the specification documents`);
    return entry;
  };
  return {
    checkParams(method, params) {
      let validate = paramValidators.get(method);
      if (!validate) {
        const { method: m, file } = entryOf(method);
        validate = ajv.compile({
          type: 'object',
          properties: Object.fromEntries(m.params.map((p) => [p.name, absoluteRefs(p.schema, file, BASE)])),
          required: m.params.filter((p) => p.required).map((p) => p.name),
          additionalProperties: false,
        });
        paramValidators.set(method, validate);
      }
      return validate(params) ? undefined : describe(validate.errors);
    },
    checkResult(method, result) {
      let validate = resultValidators.get(method);
      if (!validate) {
        const { method: m, file } = entryOf(method);
        validate = ajv.compile((absoluteRefs(m.result?.schema ?? {}, file, BASE) as object) ?? {});
        resultValidators.set(method, validate);
      }
      return validate(result) ? undefined : describe(validate.errors);
    },
    errorCodes(method) {
      return starknetSpecMethods[method] ? entryOf(method).errorCodes : [];
    },
  };
}
