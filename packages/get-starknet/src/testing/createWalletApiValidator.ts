/**
 * Checks wallet results and errors against the Starknet wallet API's own schema (`wallet-api/wallet_rpc.json` of
 * starknet-specs, with the `api/` documents it refers to), with Ajv. Test support: the connector's answers are held to
 * the published shapes (padded transaction hashes, felts without leading zeros, the spec's error codes and messages).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { absoluteRefs, describeSchemaErrors as describe } from '@nodegate/starknet-spec/conformance';
import { Ajv, type ValidateFunction } from 'ajv';

const BASE = 'https://starknet-wallet-api.invalid/';
const WALLET = 'wallet_rpc.json';

interface WalletMethod {
  name: string;
  result?: { schema: unknown };
  errors?: { $ref: string }[];
}

/** Validates wallet API results and errors. */
export interface WalletApiValidator {
  /** Why `result` does not match the method's result schema, or undefined when it does. */
  checkResult(method: string, result: unknown): string | undefined;
  /**
   * Why `error` is not one of the errors the spec lists for the method (its code, and the spec's message for that
   * code), or undefined when it is.
   */
  checkError(method: string, error: unknown): string | undefined;
}

/**
 * Builds the validator from a starknet-specs folder (the one holding `api/` and `wallet-api/`).
 *
 * @param specsDir - For example `../shared/fixtures/starknet-specs-0.10.2`.
 * @returns The validator.
 * @example
 * ```ts
 * const spec = createWalletApiValidator(SPECS);
 * spec.checkResult('wallet_requestChainId', '0x534e5f5345504f4c4941'); // undefined: valid
 * ```
 */
export function createWalletApiValidator(specsDir: string): WalletApiValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const apiDir = join(specsDir, 'api');
  for (const file of readdirSync(apiDir).filter((f) => f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(apiDir, file), 'utf8')) as { components?: unknown };
    ajv.addSchema({ $id: `${BASE}${file}`, components: absoluteRefs(doc.components ?? {}, file, BASE) });
  }
  const wallet = JSON.parse(readFileSync(join(specsDir, 'wallet-api', WALLET), 'utf8')) as {
    methods: WalletMethod[];
    components: { errors: Record<string, { code: number; message: string }> };
  };
  ajv.addSchema({ $id: `${BASE}${WALLET}`, components: absoluteRefs(wallet.components, WALLET, BASE) });
  const methods = new Map(wallet.methods.map((m) => [m.name, m]));
  const validators = new Map<string, ValidateFunction>();
  const methodOf = (name: string) => {
    const m = methods.get(name);
    if (!m) throw new Error(`${name} is not in ${WALLET}`);
    return m;
  };
  return {
    checkResult(method, result) {
      let validate = validators.get(method);
      if (!validate) {
        validate = ajv.compile(absoluteRefs(methodOf(method).result?.schema ?? {}, WALLET, BASE) as object);
        validators.set(method, validate);
      }
      return validate(result) ? undefined : describe(validate.errors);
    },
    checkError(method, error) {
      const e = (error ?? {}) as { code?: unknown; message?: unknown };
      const listed = (methodOf(method).errors ?? []).map((r) => r.$ref.split('/').pop() ?? '');
      const name = Object.keys(wallet.components.errors).find((k) => wallet.components.errors[k]?.code === e.code);
      if (!name) return `code ${String(e.code)} is not a wallet API error`;
      if (!listed.includes(name))
        return `${method} does not list ${name} (${String(e.code)}); it lists ${listed.join(', ')}`;
      const message = wallet.components.errors[name]?.message;
      return e.message === message
        ? undefined
        : `message ${JSON.stringify(e.message)} is not ${JSON.stringify(message)}`;
    },
  };
}
