/**
 * describeCalls against a real HTTP JSON-RPC server on a loopback port that answers `starknet_getClassAt` the way a
 * node can: a class with an ABI, a class without one, an empty ABI, a Starknet error, an HTML 502. Whatever the node
 * does, the dialog shows either the arguments read with the ABI or the raw call data, never a wrong reading, and
 * describing never fails the request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NetworkConfig } from '../../src/config';
import { describeCalls } from '../../src/lib/describeCalls';

const TOKEN_ABI = [
  {
    type: 'interface',
    name: 'IToken',
    items: [
      {
        type: 'function',
        name: 'transfer',
        inputs: [
          { name: 'recipient', type: 'core::starknet::contract_address::ContractAddress' },
          { name: 'amount', type: 'core::integer::u256' },
        ],
        outputs: [{ type: 'core::bool' }],
        state_mutability: 'external',
      },
      {
        type: 'function',
        name: 'configure',
        inputs: [
          { name: 'enabled', type: 'core::bool' },
          { name: 'ids', type: 'core::array::Span::<core::felt252>' },
          { name: 'limit', type: 'core::integer::u256' },
        ],
        outputs: [],
        state_mutability: 'external',
      },
      {
        type: 'function',
        name: 'set_owner',
        inputs: [{ name: 'owner', type: 'my::Owner' }],
        outputs: [],
        state_mutability: 'external',
      },
    ],
  },
];

/** What the scripted node answers to starknet_getClassAt, per contract address. */
type Answer =
  | { kind: 'class'; abi?: unknown }
  | { kind: 'rpcError'; code: number; message: string }
  | { kind: 'http'; status: number; body: string };

const answers = new Map<bigint, Answer>();
const asked: string[] = [];
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      const msg = JSON.parse(body) as { id: number; method: string; params: { contract_address?: string } };
      const reply = (payload: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (msg.method === 'starknet_specVersion') return reply({ jsonrpc: '2.0', id: msg.id, result: '0.10.0' });
      if (msg.method !== 'starknet_getClassAt') {
        return reply({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
      }
      const address = msg.params.contract_address ?? '0x0';
      asked.push(address);
      const a = answers.get(BigInt(address));
      if (!a || a.kind === 'rpcError') {
        const e = a ?? { code: 20, message: 'Contract not found' };
        return reply({ jsonrpc: '2.0', id: msg.id, error: { code: e.code, message: e.message } });
      }
      if (a.kind === 'http') {
        res.writeHead(a.status, { 'content-type': 'text/html' }).end(a.body);
        return;
      }
      const cls: Record<string, unknown> = {
        sierra_program: ['0x1'],
        contract_class_version: '0.1.0',
        entry_points_by_type: { CONSTRUCTOR: [], EXTERNAL: [], L1_HANDLER: [] },
      };
      if (a.abi !== undefined) cls.abi = a.abi;
      return reply({ jsonrpc: '2.0', id: msg.id, result: cls });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let netCount = 0;
/** A network of its own per test (providers and ABIs are cached per network). */
function network(): NetworkConfig {
  netCount += 1;
  return {
    chainId: `0x7e57${netCount.toString(16).padStart(4, '0')}`,
    name: `Scripted ${netCount}`,
    rpcUrl: url,
    accountClassHash: '0x1',
    latestAccountClassHash: '0x1',
  };
}

const TOKEN = '0x70c0';
const call = (contractAddress: string, entrypoint: string, calldata: string[]) => ({
  contractAddress,
  entrypoint,
  calldata,
});

describe('describeCalls', () => {
  it('reads the arguments with the ABI the node returns (text ABI, interface items): names, u256 joined, bool, span', async () => {
    answers.set(BigInt(TOKEN), { kind: 'class', abi: JSON.stringify(TOKEN_ABI) });
    const net = network();
    const fields = await describeCalls(net, [
      call(TOKEN, 'transfer', ['0x5a1', '0x1', '0x1']),
      call(TOKEN, 'configure', ['0x1', '0x2', '0xa', '0xb', '0x64', '0x0']),
    ]);
    expect(fields).toEqual([
      ['Call 1', `transfer on ${TOKEN}`],
      ['recipient', '0x5a1'],
      ['amount', `${1n + (1n << 128n)} (340282366920938463463.374607431768211457 at 18 decimals)`],
      ['Call 2', `configure on ${TOKEN}`],
      ['enabled', 'true'],
      ['ids', '[0xa, 0xb]'],
      ['limit', '100'],
    ]);
    // the ABI is read once per contract and network
    const before = asked.length;
    await describeCalls(net, [call(TOKEN, 'transfer', ['0x5a1', '0x1', '0x0'])]);
    expect(asked.length).toBe(before);
  });

  it('an ABI given as an object (not text) reads the same', async () => {
    const address = '0x70c1';
    answers.set(BigInt(address), { kind: 'class', abi: TOKEN_ABI });
    expect(await describeCalls(network(), [call(address, 'transfer', ['0x9', '0x64', '0x0'])])).toEqual([
      ['Call', `transfer on ${address}`],
      ['recipient', '0x9'],
      ['amount', '100 (0.0000000000000001 at 18 decimals)'],
    ]);
  });

  it('falls back to the raw call data when the class has no ABI, or an empty one', async () => {
    answers.set(0x70c2n, { kind: 'class' });
    answers.set(0x70c3n, { kind: 'class', abi: '[]' });
    for (const address of ['0x70c2', '0x70c3']) {
      expect(await describeCalls(network(), [call(address, 'transfer', ['0x5a1', '0x64', '0x0'])])).toEqual([
        ['Call', `transfer on ${address}`],
        ['Call data', '0x5a1, 0x64, 0x0'],
      ]);
    }
    // no call data and no ABI: the call line alone
    expect(await describeCalls(network(), [call('0x70c2', 'empty', [])])).toEqual([['Call', 'empty on 0x70c2']]);
  });

  it('falls back when the node cannot return the class: a Starknet error, an HTML 502', async () => {
    answers.set(0x70c4n, { kind: 'rpcError', code: 20, message: 'Contract not found' });
    answers.set(0x70c5n, { kind: 'http', status: 502, body: '<html><body>Bad Gateway</body></html>' });
    for (const address of ['0x70c4', '0x70c5']) {
      expect(await describeCalls(network(), [call(address, 'transfer', ['0x1', '0x2', '0x0'])])).toEqual([
        ['Call', `transfer on ${address}`],
        ['Call data', '0x1, 0x2, 0x0'],
      ]);
    }
  });

  it('a failed read is not remembered: once the node answers, the next dialog reads the arguments', async () => {
    answers.set(0x70c7n, { kind: 'http', status: 502, body: 'Bad Gateway' });
    const net = network();
    const transfer = call('0x70c7', 'transfer', ['0x3', '0x64', '0x0']);
    expect(await describeCalls(net, [transfer])).toEqual([
      ['Call', 'transfer on 0x70c7'],
      ['Call data', '0x3, 0x64, 0x0'],
    ]);
    answers.set(0x70c7n, { kind: 'class', abi: TOKEN_ABI });
    expect(await describeCalls(net, [transfer])).toEqual([
      ['Call', 'transfer on 0x70c7'],
      ['recipient', '0x3'],
      ['amount', '100 (0.0000000000000001 at 18 decimals)'],
    ]);
  });

  it('never shows a wrong reading: call data that does not fit the ABI, unknown types, unknown functions are raw', async () => {
    answers.set(0x70c6n, { kind: 'class', abi: JSON.stringify(TOKEN_ABI) });
    const net = network();
    const raw = (entrypoint: string, calldata: string[]) => [
      ['Call', `${entrypoint} on 0x70c6`],
      ['Call data', calldata.join(', ')],
    ];
    // too short, too long
    expect(await describeCalls(net, [call('0x70c6', 'transfer', ['0x1', '0x2'])])).toEqual(
      raw('transfer', ['0x1', '0x2']),
    );
    expect(await describeCalls(net, [call('0x70c6', 'transfer', ['0x1', '0x2', '0x0', '0x9'])])).toEqual(
      raw('transfer', ['0x1', '0x2', '0x0', '0x9']),
    );
    // a struct argument the reader does not know
    expect(await describeCalls(net, [call('0x70c6', 'set_owner', ['0x1', '0x2'])])).toEqual(
      raw('set_owner', ['0x1', '0x2']),
    );
    // a function the ABI does not have
    expect(await describeCalls(net, [call('0x70c6', 'mint', ['0x1'])])).toEqual(raw('mint', ['0x1']));
  });
});
