import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rpcResult } from './testing/rpc.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'devchain-cli-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'cli.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  return { child, output: () => out };
}

async function waitFor(file: string): Promise<{ rpc: string; chainId: string }> {
  for (let i = 0; i < 300; i++) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text) return JSON.parse(text);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('ready file not written');
}

describe('starknet-devchain CLI', () => {
  it('serves on a free port, writes the ready file, stops on SIGTERM and keeps its data', async () => {
    const ready = join(dir, 'ready.json');
    const data = join(dir, 'data');
    const { child, output } = run([
      '--listen',
      '127.0.0.1:0',
      '--data-dir',
      data,
      '--ready-file',
      ready,
      '--chain-id',
      'SN_MAIN',
      '--accounts',
      '3',
    ]);
    const info = await waitFor(ready);
    expect(info.chainId).toBe('0x534e5f4d41494e');
    expect(info.rpc).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    expect(output()).toContain(info.rpc);
    expect(await rpcResult(info.rpc, 'starknet_chainId')).toBe('0x534e5f4d41494e');
    expect(await rpcResult(info.rpc.replace(/\/rpc$/, '/rpc/v0_10'), 'starknet_specVersion')).toBe('0.10.2');
    expect(await rpcResult(info.rpc, 'devnet_getPredeployedAccounts')).toHaveLength(3);
    await rpcResult(info.rpc, 'devnet_createBlock');
    const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);

    rmSync(ready);
    const second = run(['--listen', '127.0.0.1:0', '--data-dir', data, '--ready-file', ready]);
    const info2 = await waitFor(ready);
    expect(info2.chainId).toBe('0x534e5f4d41494e');
    expect(await rpcResult(info2.rpc, 'starknet_blockNumber')).toBe(1);
    const exit2 = new Promise<number | null>((r) => second.child.on('exit', (code) => r(code)));
    second.child.kill('SIGINT');
    expect(await exit2).toBe(0);
  });
});
