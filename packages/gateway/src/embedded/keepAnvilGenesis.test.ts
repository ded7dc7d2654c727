import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepAnvilGenesis } from './keepAnvilGenesis.js';
import { startAnvil } from './startAnvil.js';
import { prepareAnvilWelcome } from './welcome/prepareAnvilWelcome.js';
import { WELCOME } from './welcome/welcomeState.js';

// anvil makes a genesis of its own at every start and dumps it with the chain's: the load then
// keeps as block 0 whichever block 0 comes last in the file. The tests put the start's genesis
// last (the order that lost the welcome genesis in welcome.test.ts about one restart in two).

const dirs: string[] = [];
async function tempDir() {
  const d = await mkdtemp(join(tmpdir(), 'nodegate-genesis-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

interface Dump {
  blocks: Array<{ header: { number: string; timestamp: string } }>;
}
const isGenesis = (b: Dump['blocks'][number]) => b.header.number === '0x0';

/** Rewrites anvil's dump with its block-0 entries in the order that puts the one timed `last` last. */
async function genesisLast(stateFile: string, last: (timestamps: number[]) => number): Promise<number> {
  const dump = JSON.parse(await readFile(stateFile, 'utf8')) as Dump;
  const geneses = dump.blocks.filter(isGenesis);
  const chosen = last(geneses.map((b) => Number(b.header.timestamp)));
  const [at, others] = [
    geneses.filter((b) => Number(b.header.timestamp) === chosen),
    geneses.filter((b) => Number(b.header.timestamp) !== chosen),
  ];
  dump.blocks = [...others, ...dump.blocks.filter((b) => !isGenesis(b)), ...at];
  await writeFile(stateFile, JSON.stringify(dump));
  return geneses.length;
}

const genesesIn = async (stateFile: string) =>
  (JSON.parse(await readFile(stateFile, 'utf8')) as Dump).blocks.filter(isGenesis).length;

describe('an anvil chain kept in a state file across restarts', () => {
  it('keeps the welcome genesis as block 0, the parent of block 1, however the dump orders its block-0 entries', async () => {
    const stateFile = join(await tempDir(), 'state.json');
    expect((await prepareAnvilWelcome({ stateFile })).prepared).toBe(true);
    expect(await genesesIn(stateFile)).toBe(1);
    let height = 2;
    for (let round = 0; round < 3; round++) {
      const anvil = await startAnvil({ stateFile });
      try {
        const [b0, b1] = await Promise.all(
          ['0x0', '0x1'].map((n) => rpc(anvil.http, 'eth_getBlockByNumber', [n, false])),
        );
        expect({ round, genesis: b0.hash, parentOf1: b1.parentHash }).toEqual({
          round,
          genesis: WELCOME.eth.genesisHash,
          parentOf1: WELCOME.eth.genesisHash,
        });
        expect(Number(b0.timestamp)).toBe(WELCOME.eth.timestamps.genesis);
        expect((await rpc(anvil.http, 'eth_getBlockByNumber', ['earliest', false])).hash).toBe(WELCOME.eth.genesisHash);
        expect(Number(await rpc(anvil.http, 'eth_blockNumber', []))).toBe(height);
        // a user's transaction each round: no block is lost by the restarts
        await rpc(anvil.http, 'eth_sendTransaction', [
          { from: WELCOME.eth.recipient, to: WELCOME.eth.account, value: '0x1' },
        ]);
        height += 1;
        for (const end = Date.now() + 10_000; Number(await rpc(anvil.http, 'eth_blockNumber', [])) < height; ) {
          if (Date.now() > end) throw new Error('the transaction was not mined');
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        await anvil.stop();
      }
      // anvil dumped its own genesis (time of day) beside the chain's: the worst order for the next load
      expect(await genesisLast(stateFile, (ts) => Math.max(...ts))).toBe(2);
    }
    const check = await keepAnvilGenesis(stateFile);
    expect(check).toEqual({
      changed: true,
      genesisTimestamp: WELCOME.eth.timestamps.genesis,
      removed: 1,
      by: 'parent of block 1',
    });
    expect(await genesesIn(stateFile)).toBe(1);
    expect(await keepAnvilGenesis(stateFile)).toEqual({ changed: false, reason: 'one genesis' });
  }, 120_000);

  it('a chain with no block 1 keeps its first genesis; no file and one genesis are left alone', async () => {
    const dir = await tempDir();
    const stateFile = join(dir, 'state.json');
    expect(await keepAnvilGenesis(stateFile)).toEqual({ changed: false, reason: 'no file' });
    const first = await startAnvil({ stateFile });
    const genesis = await rpc(first.http, 'eth_getBlockByNumber', ['0x0', false]);
    await first.stop();
    expect(await keepAnvilGenesis(stateFile)).toEqual({ changed: false, reason: 'one genesis' });
    // a later second: the next start's genesis differs
    await new Promise((r) => setTimeout(r, 1_100));
    const second = await startAnvil({ stateFile });
    expect((await rpc(second.http, 'eth_getBlockByNumber', ['0x0', false])).hash).toBe(genesis.hash);
    await second.stop();
    expect(await genesisLast(stateFile, (ts) => Math.max(...ts))).toBe(2);
    const third = await startAnvil({ stateFile });
    try {
      expect((await rpc(third.http, 'eth_getBlockByNumber', ['0x0', false])).hash).toBe(genesis.hash);
    } finally {
      await third.stop();
    }
  }, 60_000);

  it('a stop right after the start still writes the chain (anvil says it listens before it handles SIGTERM)', async () => {
    const dir = await tempDir();
    const lost: number[] = [];
    for (let i = 0; i < 12; i++) {
      const stateFile = join(dir, `state-${i}.json`);
      const anvil = await startAnvil({ stateFile, stateIntervalS: 3600 });
      await anvil.stop();
      if (!existsSync(stateFile)) lost.push(i);
    }
    expect(lost).toEqual([]);
  }, 60_000);

  it('a stop waits for anvil to write its chain even when it is slow to (stalled 6 s, past the old 5 s)', async () => {
    const stateFile = join(await tempDir(), 'state.json');
    // no periodic writes: only the stop's
    const anvil = await startAnvil({ stateFile, stateIntervalS: 3600 });
    await rpc(anvil.http, 'anvil_mine', ['0x3']);
    // a machine too loaded to run it: stopped, then resumed after 6 s
    process.kill(anvil.pid, 'SIGSTOP');
    const resume = setTimeout(() => process.kill(anvil.pid, 'SIGCONT'), 6_000);
    try {
      await anvil.stop();
    } finally {
      clearTimeout(resume);
    }
    expect(await anvil.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(stateFile)).toBe(true);
    const dump = JSON.parse(await readFile(stateFile, 'utf8')) as { best_block_number: string };
    expect(Number(dump.best_block_number)).toBe(3);
  }, 60_000);
});
