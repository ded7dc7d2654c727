import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { KeySettings } from '../KeySettings.js';

/** The outcome of a Bearer token check; `reason` is short, safe to show, and never echoes the token. */
export type BearerResult = { ok: true } | { ok: false; reason: string };

/** Seconds of clock skew tolerated on `exp`, `nbf` and `iat`. */
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;
/** Longer tokens are refused without parsing. */
export const MAX_BEARER_LENGTH = 8192;

type Alg = 'RS256' | 'ES256';
interface VerifyKey {
  readonly name: string;
  readonly alg: Alg;
  readonly key: KeyObject;
}

const keyCache = new WeakMap<KeySettings, readonly VerifyKey[]>();
const OK: BearerResult = Object.freeze({ ok: true });

/**
 * Verifies a Bearer JWT against the key's registered public keys (`settings.jwtKeys`).
 * - the `kid` header selects the key by name; without `kid` each key of the token's algorithm is tried;
 * - only RS256 (RSA keys) and ES256 (P-256 keys): `none`, HS* and everything else are refused
 *   before any key is touched;
 * - `exp` is required, `aud` must be the API key id (or an array containing it), and `nbf` and
 *   `iat` (not in the future) are checked, all with {@link JWT_CLOCK_TOLERANCE_SECONDS} of tolerance.
 * Never throws. PEMs are parsed once per settings object.
 *
 * @param now epoch milliseconds (defaults to the current time)
 * @example
 * const r = await verifyBearer(settings, token, 'f3a9c0…apikeyid');
 * if (!r.ok) throw new GatewayError('UNAUTHORIZED', `invalid JWT: ${r.reason}`);
 */
export async function verifyBearer(
  settings: KeySettings,
  token: string,
  apiKey: string,
  now: number = Date.now(),
): Promise<BearerResult> {
  const keys = verifyKeys(settings);
  if (keys.length === 0) return fail('no JWT public keys are registered on this API key');
  if (token.length > MAX_BEARER_LENGTH) return fail('token too long');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return fail('malformed token');
  }
  const alg = header.alg;
  if (alg !== 'RS256' && alg !== 'ES256') return fail('algorithm not allowed (RS256 or ES256 only)');
  let candidates: readonly VerifyKey[];
  if (header.kid !== undefined) {
    const named = keys.find((k) => k.name === header.kid);
    if (named === undefined) return fail('unknown key id (kid)');
    if (named.alg !== alg) return fail(`the key named by kid does not verify ${alg}`);
    candidates = [named];
  } else {
    candidates = keys.filter((k) => k.alg === alg);
    if (candidates.length === 0) return fail(`no registered key verifies ${alg}`);
  }
  const options = {
    algorithms: [alg],
    audience: apiKey,
    requiredClaims: ['exp'],
    clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
    currentDate: new Date(now),
  };
  for (const candidate of candidates) {
    try {
      const { payload } = await jwtVerify(token, candidate.key, options);
      if (typeof payload.iat === 'number' && payload.iat > now / 1000 + JWT_CLOCK_TOLERANCE_SECONDS) {
        return fail('token issued in the future (iat)');
      }
      return OK;
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) continue;
      return fail(reasonOf(err));
    }
  }
  return fail('invalid signature');
}

function fail(reason: string): BearerResult {
  return { ok: false, reason };
}

function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'token expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    const missing = err.reason === 'missing';
    switch (err.claim) {
      case 'exp':
        return missing ? 'missing exp claim' : 'invalid exp claim';
      case 'aud':
        return missing ? 'missing aud claim' : 'wrong audience (aud must be the API key id)';
      case 'nbf':
        return 'token not yet valid (nbf)';
      case 'iat':
        return 'invalid iat claim';
      default:
        return 'invalid claims';
    }
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed (RS256 or ES256 only)';
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid) return 'malformed token';
  if (err instanceof errors.JOSENotSupported) return 'unsupported token';
  return 'invalid token';
}

/** The settings' usable public keys (RSA for RS256, P-256 for ES256), parsed once. */
function verifyKeys(settings: KeySettings): readonly VerifyKey[] {
  let keys = keyCache.get(settings);
  if (keys === undefined) {
    keys = settings.jwtKeys.flatMap((jwk): VerifyKey[] => {
      let key: KeyObject;
      try {
        key = createPublicKey(jwk.pem);
      } catch {
        return []; // an unparseable PEM verifies nothing (settings validation should refuse it)
      }
      if (key.asymmetricKeyType === 'rsa') return [{ name: jwk.name, alg: 'RS256', key }];
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
        return [{ name: jwk.name, alg: 'ES256', key }];
      }
      return [];
    });
    keyCache.set(settings, keys);
  }
  return keys;
}
