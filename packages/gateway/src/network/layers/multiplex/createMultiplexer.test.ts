import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import { ethFamily } from '../../../families/eth/ethFamily.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { createHttpUpstream } from '../../../upstream/createHttpUpstream.js';
import { createNetwork, type Network } from '../../createNetwork.js';

// One network over a fault proxy in front of a real anvil; the proxy answers slowly so that
// calls are in flight together, and counts what reaches it.
let anvil: EmbeddedProcess;
let f: FaultUpstream;
const open: Network[] = [];
const addr = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const slow = (ms: number) => () => ({ kind: 'slow' as const, ms });

beforeAll(async () => {
  anvil = await startAnvil();
  f = await createFaultUpstream(anvil.http);
});
afterEach(async () => {
  f.script(() => ({ kind: 'pass' }));
  for (const n of open.splice(0)) {
    await n.close();
    await Promise.all(n.upstreams.map((u) => u.close()));
  }
});
afterAll(async () => {
  await f?.close();
  await anvil?.stop();
});

function network(policy: Record<string, unknown> = {}, url = f.url): Network {
  const settings = validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams: [{ name: 'one', http: url }],
        policy: { probeIntervalMs: 600_000, exploreShare: 0, hedge: false, ...policy },
      },
    ],
  }).networks[0]!;
  const n = createNetwork(
    settings,
    ethFamily,
    settings.upstreams.map((u) => createHttpUpstream({ name: u.name, http: u.http!, timeoutMs: 10_000 })),
  );
  open.push(n);
  return n;
}

describe('multiplex: identical reads in flight go upstream once', () => {
  it('50 identical calls at once: one upstream call, 50 answers, 49 of them marked multiplexed', async () => {
    const n = network();
    f.script(slow(150));
    const before = f.hits('eth_getBalance');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => n.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance, true)),
    );
    expect(f.hits('eth_getBalance') - before).toBe(1);
    const balance = answers[0]!.result;
    for (const a of answers) {
      expect(a.result).toEqual(balance);
      expect(a.upstream).toBe('one');
      expect(a.attempts).toBe(1);
    }
    expect(answers.filter((a) => a.multiplexed === true)).toHaveLength(49);
    expect(answers[0]!.multiplexed).toBeUndefined();
    expect(n.counters().multiplexed).toBe(49);
    // afterwards, a new call goes upstream again (nothing is kept: this is no cache)
    await n.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance, true);
    expect(f.hits('eth_getBalance') - before).toBe(2);
  });

  it('identical means the canonical params: key order does not matter, a different value does', async () => {
    const n = network();
    f.script(slow(150));
    const call = (o: Record<string, string>) => n.forward('eth_call', [o, 'latest'], ethMethods.eth_call);
    const before = f.hits('eth_call');
    const [a, b, c] = await Promise.all([
      call({ to: addr, data: '0x01' }),
      call({ data: '0x01', to: addr }),
      call({ to: addr, data: '0x02' }),
    ]);
    expect(f.hits('eth_call') - before).toBe(2);
    expect([a.multiplexed, b.multiplexed, c.multiplexed]).toEqual([undefined, true, undefined]);
  });

  it('each caller gets its own copy of a parsed result', async () => {
    const n = network();
    f.script(slow(100));
    const [a, b] = await Promise.all(
      [0, 1].map(() => n.forward('eth_getBlockByNumber', ['0x0', false], ethMethods.eth_getBlockByNumber, false)),
    );
    expect(b!.multiplexed).toBe(true);
    expect(a!.result).toEqual(b!.result);
    expect(a!.result).not.toBe(b!.result);
    (a!.result as Record<string, unknown>).number = 'changed by one caller';
    expect((b!.result as Record<string, unknown>).number).toBe('0x0');
  });

  it('never shares a write, nor a read when the network turns it off', async () => {
    const n = network();
    f.script(slow(100));
    const before = f.hits('eth_sendRawTransaction');
    await Promise.all(
      [0, 1, 2].map(() =>
        n.forward('eth_sendRawTransaction', ['0x02f86b'], ethMethods.eth_sendRawTransaction).catch((e) => e),
      ),
    );
    expect(f.hits('eth_sendRawTransaction') - before).toBe(3);
    const off = network({ multiplex: false });
    const reads = f.hits('eth_chainId');
    const answers = await Promise.all([0, 1, 2].map(() => off.forward('eth_chainId', [], ethMethods.eth_chainId)));
    expect(f.hits('eth_chainId') - reads).toBe(3);
    expect(answers.every((a) => a.multiplexed === undefined)).toBe(true);
    expect(off.counters().multiplexed).toBe(0);
  });

  it('a read after a write was answered does not join a call started before the write', async () => {
    const n = network();
    f.script((m) => (m === 'eth_getBalance' ? { kind: 'slow', ms: 300 } : { kind: 'pass' }));
    const before = f.hits('eth_getBalance');
    const early = n.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance);
    await new Promise((r) => setTimeout(r, 50));
    await n.forward('eth_sendRawTransaction', ['0x02f86b'], ethMethods.eth_sendRawTransaction).catch(() => undefined);
    const late = await n.forward('eth_getBalance', [addr, 'latest'], ethMethods.eth_getBalance);
    await early;
    expect(late.multiplexed).toBeUndefined();
    expect(f.hits('eth_getBalance') - before).toBe(2);
  });

  it("shares errors too: every caller gets the node's answer, from one upstream call", async () => {
    const n = network();
    f.script(() => ({ kind: 'rpc-error', code: 3, message: 'execution reverted' }));
    const before = f.hits('eth_call');
    const errors = await Promise.all(
      [0, 1, 2].map(() =>
        n.forward('eth_call', [{ to: addr, data: '0x' }, 'latest'], ethMethods.eth_call).catch((e) => e),
      ),
    );
    expect(f.hits('eth_call') - before).toBe(1);
    for (const e of errors) expect(e).toMatchObject({ code: 3, message: 'execution reverted', attempts: 1 });
  });
});

describe('multiplex: callers that go away', () => {
  let server: Server;
  let url: string;
  let received = 0;
  let abandoned = 0;
  let answered = 0;
  beforeAll(async () => {
    // an upstream that answers eth_chainId after 300 ms and says when a request was abandoned
    server = createServer((req, res) => {
      received += 1;
      req.resume();
      const timer = setTimeout(() => {
        answered += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}');
      }, 300);
      res.on('close', () => {
        if (!res.writableFinished) {
          abandoned += 1;
          clearTimeout(timer);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('an early caller leaving does not abort the call the others wait for', async () => {
    const n = network({}, url);
    const at = { received, abandoned, answered };
    const leaving = [new AbortController(), new AbortController()];
    const calls = [
      n.forward('eth_chainId', [], ethMethods.eth_chainId, false, leaving[0]!.signal),
      n.forward('eth_chainId', [], ethMethods.eth_chainId, false, leaving[1]!.signal),
      n.forward('eth_chainId', [], ethMethods.eth_chainId, false, new AbortController().signal),
    ];
    setTimeout(() => {
      leaving[0]!.abort();
      leaving[1]!.abort();
    }, 50);
    const [first, second, stayed] = await Promise.allSettled(calls);
    expect(first).toMatchObject({ status: 'rejected', reason: expect.any(ClientGoneError) });
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(ClientGoneError) });
    expect(stayed).toMatchObject({ status: 'fulfilled', value: { result: '0x7a69', multiplexed: true } });
    expect({
      received: received - at.received,
      abandoned: abandoned - at.abandoned,
      answered: answered - at.answered,
    }).toEqual({
      received: 1,
      abandoned: 0,
      answered: 1,
    });
  });

  it('the last caller leaving aborts it upstream, and the next caller starts a new one', async () => {
    const n = network({}, url);
    const at = { received, abandoned };
    const callers = [new AbortController(), new AbortController()];
    const calls = callers.map((c) =>
      n.forward('eth_chainId', [], ethMethods.eth_chainId, false, c.signal).catch((e) => e),
    );
    await new Promise((r) => setTimeout(r, 50));
    callers[0]!.abort();
    await new Promise((r) => setTimeout(r, 30));
    expect(abandoned - at.abandoned).toBe(0);
    callers[1]!.abort();
    for (const e of await Promise.all(calls)) expect(e).toBeInstanceOf(ClientGoneError);
    await new Promise((r) => setTimeout(r, 50));
    expect(abandoned - at.abandoned).toBe(1);
    const next = await n.forward('eth_chainId', [], ethMethods.eth_chainId, false, new AbortController().signal);
    expect(next).toMatchObject({ result: '0x7a69' });
    expect(next.multiplexed).toBeUndefined();
    expect(received - at.received).toBe(2);
  });
});
