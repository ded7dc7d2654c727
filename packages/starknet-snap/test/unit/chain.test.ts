/**
 * assertChainId against real HTTP JSON-RPC servers on loopback ports: the node behind a network's URL must report
 * that network's chain id before the snap uses it (so it never signs for one chain and sends to another).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NetworkConfig } from '../../src/config';
import { assertChainId } from '../../src/lib/chain';

const SEPOLIA = '0x534e5f5345504f4c4941';
const MAIN = '0x534e5f4d41494e';

/** A node that reports `chainId` and counts how often it was asked. */
async function node(chainId: string): Promise<{ server: Server; url: string; asked: () => number }> {
  let asked = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      const msg = JSON.parse(body) as { id: number; method: string };
      if (msg.method === 'starknet_chainId') asked += 1;
      const answer =
        msg.method === 'starknet_chainId'
          ? { jsonrpc: '2.0', id: msg.id, result: chainId }
          : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, asked: () => asked };
}

const network = (chainId: string, name: string, rpcUrl: string): NetworkConfig => ({
  chainId,
  name,
  rpcUrl,
  accountClassHash: '0x1',
  latestAccountClassHash: '0x1',
});

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('assertChainId', () => {
  it('refuses a node that serves another chain (-32006, naming both), asking the node itself', async () => {
    const wrong = await node(SEPOLIA);
    servers.push(wrong.server);
    const err = await assertChainId(network(MAIN, 'Starknet Mainnet', wrong.url)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32006 });
    expect((err as Error).message).toContain(`serves chain ${SEPOLIA}, not ${MAIN}`);
    expect(wrong.asked()).toBe(1);
  });

  it('accepts a node that serves the network and asks it once per network', async () => {
    const right = await node(SEPOLIA);
    servers.push(right.server);
    const net = network(SEPOLIA, 'Starknet Sepolia', right.url);
    await expect(assertChainId(net)).resolves.toBeUndefined();
    await expect(assertChainId(net)).resolves.toBeUndefined();
    expect(right.asked()).toBe(1);
  });

  it('an unreachable node is -32006 naming the network, without the URL', async () => {
    const err = await assertChainId(network(MAIN, 'Starknet Mainnet', 'http://127.0.0.1:9/secret-key')).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: -32006 });
    expect((err as Error).message).toContain('Starknet Mainnet');
    expect((err as Error).message).not.toContain('secret-key');
  });
});
