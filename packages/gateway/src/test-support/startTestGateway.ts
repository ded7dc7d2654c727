import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../main.js';

/** A gateway in front of a real anvil, configured like a production deployment. */
export interface TestGateway {
  gw: RunningGateway;
  anvil: EmbeddedProcess;
  key: string;
  secret: string;
  /** JSON-RPC URL through the gateway: {base}/v3/KEY */
  rpcUrl: string;
  wsUrl: string;
  /** anvil's own URL, for differential comparisons. */
  directUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts anvil and a gateway whose config points at it by URL (the production path).
 * `wsUpstream` overrides the upstream WebSocket URL (e.g. a counting proxy).
 */
export async function startTestGateway(
  options: {
    wsUpstream?: (anvilWs: string) => Promise<string> | string;
    extra?: Record<string, unknown>;
    /** More networks beside eth-devnet (e.g. one in front of a fault server). */
    networks?: (anvil: EmbeddedProcess) => Array<Record<string, unknown>>;
    /** `startGateway`'s options (test timings). */
    gateway?: Parameters<typeof startGateway>[1];
  } = {},
): Promise<TestGateway> {
  const anvil = await startAnvil();
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-test-'));
  const ws = options.wsUpstream ? await options.wsUpstream(anvil.ws!) : anvil.ws;
  const config = validateConfig({
    listen: '127.0.0.1:0',
    dataDir,
    devKey: true,
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        chainId: 31337,
        dev: true,
        pathPrefix: '/eth-devnet',
        hosts: ['devnet.nodegate.test'],
        upstreams: [{ name: 'anvil', http: anvil.http, ws }],
      },
      ...(options.networks?.(anvil) ?? []),
    ],
    ...options.extra,
  });
  const gw = await startGateway(config, options.gateway);
  const base = gw.networks['eth-devnet']!;
  const key = gw.devKey!.key;
  return {
    gw,
    anvil,
    key,
    secret: gw.devKey!.secret,
    rpcUrl: `${base.http}/v3/${key}`,
    wsUrl: `${base.ws}/ws/v3/${key}`,
    directUrl: anvil.http,
    async stop() {
      await gw.close();
      await anvil.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs a JSON body and returns status, headers and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? (JSON.parse(text) as any) : undefined };
}

/** One JSON-RPC call; returns the whole response object. */
export async function rpc(url: string, method: string, params: unknown[] = [], id: unknown = 1): Promise<any> {
  return (await postJson(url, { jsonrpc: '2.0', id, method, params })).json;
}

/**
 * Polls for a transaction's receipt, as clients do: anvil answers eth_sendRawTransaction before
 * its automine has put the transaction in a block, so an immediate lookup may be null.
 */
export async function waitForReceipt(url: string, hash: string, timeoutMs = 10_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (r.result) return r.result;
    if (Date.now() > end) throw new Error(`no receipt for ${hash} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
