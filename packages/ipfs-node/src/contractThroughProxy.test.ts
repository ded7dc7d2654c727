import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';
import { ipfsContractSuite } from './testing/ipfsContractSuite.js';

// The contract suite is meant to run through nodegate's gateway too: check it works through a
// streaming reverse proxy with a path prefix and basic auth, as the gateway serves it.
const AUTH = `Basic ${Buffer.from('key:secret').toString('base64')}`;

let node: IpfsNode;
let repo: string;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ipfs-node-proxy-'));
  node = await startIpfsNode({ repo });
  const upstream = new URL(node.apiUrl);
  proxy = createServer((req, res) => {
    if (req.headers.authorization !== AUTH || !req.url?.startsWith('/ipfs/')) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"Message":"unauthorized","Code":0,"Type":"error"}\n');
      return;
    }
    const { authorization: _, ...headers } = req.headers;
    const up = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url.slice('/ipfs'.length),
        headers,
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res, { end: false });
        upRes.on('end', () => {
          res.addTrailers(upRes.trailers as Record<string, string>);
          res.end();
        });
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  // like the node: keep idle client connections longer than clients keep them (undici: 4 s)
  proxy.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/ipfs`;
});

afterAll(async () => {
  await new Promise((resolve) => {
    proxy?.close(resolve);
    proxy?.closeAllConnections();
  });
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

ipfsContractSuite(
  'through a reverse proxy with a path prefix and basic auth',
  () => ({
    url: proxyUrl,
    headers: { authorization: AUTH },
  }),
  { adminCommands: false, largeFileBytes: 16 * 1024 * 1024 },
);
