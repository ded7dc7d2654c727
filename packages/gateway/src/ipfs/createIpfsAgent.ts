import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { NetConnectOpts } from 'node:net';
import { connectReusingReads } from './connectReusingReads.js';

/**
 * The connection pool to an IPFS node (Kubo's RPC API): kept alive, up to 256 connections, the
 * most recently used first; over plain HTTP each connection reads into one reused buffer
 * ({@link connectReusingReads}), so streamed answers allocate half as much.
 *
 * @example
 * const agent = createIpfsAgent(new URL('http://127.0.0.1:5001'));
 */
export function createIpfsAgent(url: URL): HttpAgent | HttpsAgent {
  const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32, scheduling: 'lifo' as const };
  if (url.protocol === 'https:') return new HttpsAgent(options);
  const agent = new HttpAgent(options);
  agent.createConnection = (connectOptions) => connectReusingReads(connectOptions as NetConnectOpts);
  return agent;
}
