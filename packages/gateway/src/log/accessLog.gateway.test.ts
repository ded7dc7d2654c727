import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { INVALID_CALL_CREDITS } from '../pipeline/stages/chargeCredits.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { postJson } from '../test-support/startTestGateway.js';

// The gateway as users run it (the built CLI) with `log.format: json`: its access log on stdout.
let anvil: EmbeddedProcess;
let gateway: SpawnedGateway;

beforeAll(async () => {
  anvil = await startAnvil();
  gateway = await spawnGateway({
    devKey: true,
    log: { access: true },
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', http: anvil.http, ws: anvil.ws }],
      },
    ],
  });
});
afterAll(async () => {
  await gateway?.stop();
  await anvil?.stop();
});

/** The access lines written so far (stdout also holds the other log lines and the start event). */
const accessLines = (): any[] => gateway.logLines().filter((o) => o.msg === 'request');

const waitForLines = async (n: number) => {
  for (let i = 0; i < 200 && accessLines().length < n; i++) await new Promise((r) => setTimeout(r, 25));
  return accessLines();
};

describe('access log of a running gateway', () => {
  it('writes one JSON line per finished request with its request id, and never the key', async () => {
    const { key, secret } = gateway.ready.devKey!;
    const url = `${gateway.ready.networks['eth-devnet']!.http}/v3/${key}`;
    const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });
    expect((await postJson(url, call('eth_chainId'))).status).toBe(200);
    expect((await postJson(url, [call('eth_blockNumber', 1), call('eth_chainId', 2)])).status).toBe(200);
    expect((await postJson(url, call('eth_madeUp'))).status).toBe(200);
    const ws = new WebSocket(`${gateway.ready.networks['eth-devnet']!.ws}/ws/v3/${key}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answered = new Promise((resolve) => ws.once('message', resolve));
    ws.send(JSON.stringify(call('eth_chainId', 9)));
    await answered;
    ws.close();

    const lines = await waitForLines(5);
    expect(lines).toHaveLength(5);
    expect(lines.map((l) => [l.transport, l.method, l.status])).toEqual([
      ['http', 'eth_chainId', 200],
      ['http', 'eth_blockNumber', 200],
      ['http', 'eth_chainId', 200],
      ['http', 'eth_madeUp', 200],
      ['ws', 'eth_chainId', 200],
    ]);
    for (const l of lines) {
      expect(l).toMatchObject({ level: 'info', network: 'eth-devnet', key: `${key.slice(0, 4)}…` });
      expect(l.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
      expect(typeof l.latencyMs).toBe('number');
      expect(Date.parse(l.time)).toBeGreaterThan(0);
    }
    // a batch's items share the request's id; separate requests do not
    expect(lines[1].requestId).toBe(lines[2].requestId);
    expect(new Set(lines.map((l) => l.requestId)).size).toBe(4);
    expect(lines[0]).toMatchObject({ upstream: 'anvil', credits: 5 });
    // an unknown method costs what an invalid call does (docs/errors.md#invalid-call-credits)
    expect(lines[3]).toMatchObject({ errorCode: -32601, credits: INVALID_CALL_CREDITS });
    const output = gateway.output();
    expect(output).not.toContain(key);
    expect(output).not.toContain(secret);
  });
});
