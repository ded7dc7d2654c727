import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LimitSettings } from '../config/types.js';
import { GatewayError } from '../errors/GatewayError.js';
import { createServedMeter } from '../ipfs/createServedMeter.js';
import { IpfsCommandError } from '../ipfs/IpfsCommandError.js';
import { accessOf } from '../ipfsGateway/access/accessOf.js';
import { contentError } from '../ipfsGateway/upstream/contentError.js';
import type { IpfsGateways } from '../ipfsGateway/createIpfsGateways.js';
import { GATEWAY_NAME } from '../ipfsGateway/GatewayRecord.js';
import type { GATEWAY_METHODS, GatewayMethod } from '../ipfsGateway/gatewayMethods.js';
import type { GatewayMatch } from '../ipfsGateway/matchGatewayRequest.js';
import { parseGatewayTarget } from '../ipfsGateway/parseGatewayTarget.js';
import { encodePath } from '../ipfsGateway/serve/ContentRequest.js';
import { AnswerStopped, createBodyWriter } from '../ipfsGateway/serve/createBodyWriter.js';
import { negotiateFormat, type ResponseFormat } from '../ipfsGateway/serve/negotiateFormat.js';
import { dnsLabelOf } from '../ipfsGateway/serve/parseRootCid.js';
import { serveContent } from '../ipfsGateway/serve/serveContent.js';
import type { Logger } from '../log/createLogger.js';
import type { RequestPath } from '../pipeline/requestPath.js';
import { acquireKeySlot } from '../pipeline/stages/acquireKeySlot.js';
import { writeGatewayError } from '../wire/writeGatewayError.js';
import { clientSignal } from './clientSignal.js';
import { createRequestContext } from './createRequestContext.js';

/** No bound (the limiter's counters stay integers). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

const PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers':
    'Accept, Range, If-None-Match, If-Range, Cache-Control, Service-Worker, X-Nodegate-Gateway-Token',
  'access-control-max-age': '86400',
  'content-length': '0',
};

/** The usage method a response format is recorded as ({@link GATEWAY_METHODS}: metrics labels stay bounded). */
export function gatewayMethodOf(format: ResponseFormat | undefined): GatewayMethod {
  if (format === undefined) return 'gateway/unixfs';
  switch (format.kind) {
    case 'raw':
      return 'gateway/raw';
    case 'car':
      return 'gateway/car';
    case 'codec':
      return 'gateway/codec';
    case 'deserialized':
      return 'gateway/unixfs';
  }
}

/**
 * A dedicated IPFS gateway's request (`GET`/`HEAD`; `OPTIONS` answers CORS), through the same
 * request path as every other: a RequestContext (network `ipfs-gateway`, its deadline the
 * gateway's `timeoutMs`), the gateway found by name (404 for none; the database away is 503), the
 * format negotiated (400/406), the host form redirected to the subdomain form (301: each root its
 * own origin; trustless answers are served on the host form as they are), limits (`admitGateway`:
 * the gateway's credits on its account's plan → 429), access (open, a gateway token → 401 when
 * wrong, an allowed origin, else only the account's pinned content → 403 without asking the node
 * anything for it), the account's gateway bandwidth (`createServedMeter` on the plan's
 * `gatewayBandwidthPerDay`: 429 once used up, a reset when it runs out mid-answer), one of the
 * account's slots (`maxConcurrentPerAccount` reads in flight, then in line; a full line is 429), the content
 * (streamed), and record usage (bytes that crossed the connection; metrics and the access log
 * read it).
 *
 * @example
 * serveIpfsGateway(req, res, match, '?format=car', { gateways, path, limits, log });
 */
export async function serveIpfsGateway(
  req: IncomingMessage,
  res: ServerResponse,
  match: GatewayMatch,
  rawQuery: string,
  deps: { gateways: IpfsGateways; path: RequestPath; limits: LimitSettings; log: Logger },
): Promise<void> {
  const { gateways } = deps;
  if (req.method === 'OPTIONS') {
    res.writeHead(204, PREFLIGHT).end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD, OPTIONS');
    return writeGatewayError(
      req,
      res,
      new GatewayError('METHOD_NOT_ALLOWED', 'a gateway answers GET and HEAD', { httpStatus: 405 }),
    );
  }
  if (match.form === 'unknown-host' || !GATEWAY_NAME.test(match.name)) {
    return writeGatewayError(req, res, new GatewayError('NOT_FOUND', 'no such gateway', { httpStatus: 404 }));
  }
  let gateway: Awaited<ReturnType<typeof gateways.directory.find>>;
  try {
    gateway = await gateways.directory.find(match.name);
  } catch (err) {
    return writeGatewayError(req, res, err);
  }
  if (gateway === undefined) {
    return writeGatewayError(req, res, new GatewayError('NOT_FOUND', 'no such gateway', { httpStatus: 404 }));
  }
  const client = clientSignal(req.socket);
  const ctx = createRequestContext(req, {
    transport: 'ipfs',
    network: 'ipfs-gateway',
    credentials: { key: '', secret: undefined, bearer: undefined },
    timeoutMs: gateways.settings.timeoutMs,
    signal: client,
    log: deps.log,
  });
  const query = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery);
  let format: ResponseFormat | undefined;
  let charged = 0;
  let refused: GatewayError | undefined;
  const socket = req.socket;
  const readBefore = socket.bytesRead;
  const writtenBefore = socket.bytesWritten;
  const record = (status: number, error: unknown) =>
    deps.path.recordUsage(ctx, {
      method: gatewayMethodOf(format),
      status,
      error,
      credits: charged,
      upstream: undefined,
      bytesIn: socket.bytesRead - readBefore,
      bytesOut: socket.bytesWritten - writtenBefore,
    });
  try {
    const target = parseGatewayTarget(match);
    const negotiated = negotiateFormat(query, req.headers.accept);
    format = negotiated.format;
    await deps.path.admitGateway(ctx, gateway.tenant, gateways.settings.requestCredits);
    charged = gateways.settings.requestCredits;
    const redirect = subdomainRedirect(req, match, target, format, rawQuery, gateways.settings.domain);
    if (redirect !== undefined) {
      res.writeHead(301, { location: redirect, 'access-control-allow-origin': '*', 'content-length': '0' }).end();
      record(301, undefined);
      return;
    }
    const find = AbortSignal.any([client, AbortSignal.timeout(gateways.settings.timeoutMs)]);
    const access = await accessOf(gateway.record, req.headers, query, gateways.directory);
    if (access === 'restricted') {
      const pinned = await gateways.scope.allows(
        gateway.record.accountId,
        target.root,
        target.segments.length > 0,
        find,
      );
      if (!pinned) {
        throw new GatewayError(
          'FORBIDDEN',
          'this gateway serves only content its account pinned: pin it with a key of the account, or send a gateway token (?token= or X-Nodegate-Gateway-Token)',
          { httpStatus: 403, refusal: 'gateway-restricted' },
        );
      }
    }
    const plan = gateway.plan;
    const meter = createServedMeter(
      gateways.limiter,
      gateways.meterKey(gateway.record.accountId),
      {
        bytesPerRequest: UNBOUNDED,
        bytesPerDay: plan.gatewayBandwidthPerDay ?? UNBOUNDED,
        bytesPerSecond: plan.ipfsServedBytesPerSecond ?? UNBOUNDED,
        creditsPerMiB: 0,
        credits: gateway.tenant.limits,
      },
      client,
    );
    if ((await meter.refuseBefore()) !== undefined) throw bandwidthRefusal(plan.gatewayBandwidthPerDay);
    // one of the account's slots: its reads in flight are bounded, the others' are not touched
    const release = await acquireKeySlot(
      gateways.slots,
      gateway.record.accountId,
      find,
      "this account's gateways",
    ).catch((err: unknown) => {
      // waited past the content's deadline: the same 504 as content not found in time
      throw find.aborted && !client.aborted ? contentError('timeout') : err;
    });
    const rawPath = (req.url ?? '/').split('?')[0]!;
    try {
      await serveContent(
        {
          req,
          res,
          upstream: gateways.upstream,
          head: req.method === 'HEAD',
          root: target.root,
          segments: target.segments,
          trailingSlash: target.trailingSlash,
          query,
          urlPath: rawPath.replace(/\/$/, ''),
          rawQuery,
          contentPath: `/ipfs/${target.root.toString()}${target.segments.length ? `/${encodePath(target.segments)}` : ''}${target.trailingSlash && target.segments.length ? '/' : ''}`,
          find,
          client,
          idleMs: gateways.settings.timeoutMs,
          body: createBodyWriter(res, meter),
          files: gateways.files,
          maxListingEntries: gateways.settings.maxListingEntries,
          contentLocation:
            negotiated.impliedFormat === undefined
              ? undefined
              : `${rawPath}?${new URLSearchParams([['format', negotiated.impliedFormat], ...query]).toString()}`,
        },
        format,
      );
    } finally {
      release();
      meter.flush();
    }
    record(res.statusCode, undefined);
  } catch (err) {
    let answer = err;
    if (err instanceof IpfsCommandError) {
      // the account's bandwidth ran out mid-answer (the meter stopped it)
      answer = err.status === 429 ? bandwidthRefusal(gateway.plan.gatewayBandwidthPerDay) : err;
    }
    if (answer instanceof GatewayError) refused = answer;
    const partial = res.headersSent;
    writeGatewayError(req, res, answer);
    if (
      !(answer instanceof GatewayError) &&
      !(answer instanceof AnswerStopped) &&
      !(answer instanceof IpfsCommandError)
    ) {
      deps.log.error('gateway request failed', { error: (answer as Error).message });
    }
    // an answer cut after its status was sent is recorded with that status and the reason it stopped
    const status = partial ? res.statusCode : (refused?.httpStatus ?? 500);
    record(status, refused ?? new GatewayError('INTERNAL_ERROR', 'the answer stopped', { httpStatus: status }));
  }
}

/** The 429 of an account whose gateways served their day's bandwidth. */
function bandwidthRefusal(perDay: number | undefined): GatewayError {
  const now = Date.now();
  const resetsAt = new Date((Math.floor(now / 86_400_000) + 1) * 86_400_000);
  return new GatewayError(
    'RATE_LIMITED',
    `daily gateway bandwidth reached: this account's gateways may serve ${perDay ?? 0} bytes per day; it resets at ${resetsAt.toISOString()}`,
    {
      httpStatus: 429,
      retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now) / 1000)),
      refusal: 'gateway-bandwidth',
    },
  );
}

/**
 * Where the host form sends a browser (subdomain gateway spec): `/ipfs/<cid>/<path>` on
 * `<name>.ipfs.<domain>` to `<cid v1 base32>.ipfs.<name>.ipfs.<domain>/<path>` (query kept), and a
 * subdomain whose label is not the canonical one (a CIDv0, upper case, a long CID in base32) to
 * the canonical label. Trustless answers (raw blocks, CARs) are not redirected: clients ask for
 * them at `/ipfs/<cid>` and verify them, they are never rendered. Undefined: no redirect.
 */
function subdomainRedirect(
  req: IncomingMessage,
  match: GatewayMatch,
  target: ReturnType<typeof parseGatewayTarget>,
  format: ResponseFormat,
  rawQuery: string,
  domain: string | undefined,
): string | undefined {
  if (domain === undefined || (match.form !== 'host' && match.form !== 'subdomain')) return undefined;
  if (match.form === 'host' && (format.kind === 'raw' || format.kind === 'car')) return undefined;
  const label = dnsLabelOf(target.root);
  if (match.form === 'subdomain' && label === match.label) return undefined;
  if (label === undefined) {
    throw new GatewayError('INVALID_REQUEST', 'this CID does not fit in one DNS label (63 characters)', {
      httpStatus: 400,
    });
  }
  const port = /:(\d+)$/.exec(req.headers.host ?? '')?.[1];
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const path = target.segments.length ? `/${encodePath(target.segments)}${target.trailingSlash ? '/' : ''}` : '/';
  return `${scheme}://${label}.ipfs.${match.name}.ipfs.${domain}${port ? `:${port}` : ''}${path}${rawQuery}`;
}
