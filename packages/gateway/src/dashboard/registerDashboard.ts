import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { NetworkFamily } from '../config/types.js';

/** A network as the dashboard shows it: where its JSON-RPC and WebSocket endpoints are. */
export interface DashboardNetwork {
  readonly family: NetworkFamily;
  /** `{base_url}`: JSON-RPC is `POST {http}/v3/<KEY>`. */
  readonly http: string;
  /** `{ws_url}`: WebSocket is `{ws}/ws/v3/<KEY>`. */
  readonly ws: string;
}

/** The public, secret-free facts the dashboard needs and the admin API does not list. */
export interface DashboardConfig {
  readonly networks: Readonly<Record<string, DashboardNetwork>>;
  /** `{ipfs_url}` (the Kubo RPC API is under `/api/v0/`), or null without IPFS. */
  readonly ipfs: string | null | undefined;
  /** The admin REST API's base URL (`…/admin/api/v1`). */
  readonly adminUrl: string;
}

export interface DashboardOptions {
  /** The dashboard's Vite build (`packages/dashboard/dist`). */
  readonly distDir: string;
  /** The config, or a function giving it (the listening port is known only after `listen`). */
  readonly config: DashboardConfig | (() => DashboardConfig);
}

/** Self only; no inline or evaluated scripts. Inline style attributes stay (the component library sets them). */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
/** A Vite asset name: `assets/<name>-<hash>.<ext>`, nothing that could climb out of the folder. */
const ASSET = /^[A-Za-z0-9_.-]+$/;

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

/**
 * Serves the dashboard: `GET /` → 302 `/dashboard`; `/dashboard` and `/dashboard/*` answer the
 * single-page app's `index.html` (`cache-control: no-cache`) unless the path is a built file;
 * hashed files under `/dashboard/assets/` are immutable for a year; every answer carries a strict
 * Content-Security-Policy. `GET /dashboard/config.json` gives the networks' endpoints, the IPFS
 * URL and the admin API's URL (no secrets). When the dashboard is not built, 503 says how.
 *
 * @example
 * await registerDashboard(app, {
 *   distDir: dirname(require.resolve('@nodegate/dashboard/package.json')) + '/dist',
 *   config: () => ({ networks: endpoints, ipfs: ipfsUrl, adminUrl: `${base}/admin/api/v1` }),
 * });
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const { distDir } = options;
  const configOf = () => (typeof options.config === 'function' ? options.config() : options.config);

  const sendIndex = async (reply: FastifyReply) => {
    let html: Buffer;
    try {
      html = await readFile(join(distDir, 'index.html'));
    } catch {
      return secure(reply)
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('the dashboard is not built: run `npm run build -w @nodegate/dashboard` (npm start does it)\n');
    }
    return secure(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  const sendFile = async (reply: FastifyReply, file: string, immutable: boolean) => {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return false;
    secure(reply)
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('content-length', info.size)
      .type(TYPES[extname(file)] ?? 'application/octet-stream');
    await reply.send(createReadStream(file));
    return true;
  };

  const notFound = (reply: FastifyReply) =>
    secure(reply).code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('not found\n');

  app.route({
    method: ['GET', 'HEAD'],
    url: '/',
    handler: async (_req, reply) => secure(reply).header('cache-control', 'no-store').redirect('/dashboard', 302),
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/dashboard/config.json',
    handler: async (_req, reply) => {
      const c = configOf();
      return secure(reply)
        .header('cache-control', 'no-cache')
        .type('application/json; charset=utf-8')
        .send({ networks: c.networks, ipfs: c.ipfs ?? null, adminUrl: c.adminUrl });
    },
  });

  app.route({ method: ['GET', 'HEAD'], url: '/dashboard', handler: async (_req, reply) => sendIndex(reply) });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/dashboard/*',
    handler: async (req, reply) => {
      const rest = (req.params as { '*': string })['*'];
      if (rest.startsWith('assets/')) {
        const name = rest.slice('assets/'.length);
        if (!ASSET.test(name) || name.startsWith('.')) return notFound(reply);
        if (await sendFile(reply, join(distDir, 'assets', name), true)) return reply;
        return notFound(reply);
      }
      // a top-level built file (favicon.svg, robots.txt); anything else is a route of the app
      if (ASSET.test(rest) && !rest.startsWith('.') && extname(rest) !== '' && rest !== 'index.html') {
        if (await sendFile(reply, join(distDir, rest), false)) return reply;
        return notFound(reply);
      }
      return sendIndex(reply);
    },
  });
}
