import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const open = new Set<Server>();

/**
 * A real node:http server on 127.0.0.1 and a free port, for tests of the HTTP hops; closed (its
 * connections too) by {@link closeLoopbackServers}, which a test file calls in `afterEach`.
 *
 * @example
 * const { url } = await listenLoopback((_req, res) => res.end('ok'));
 */
export async function listenLoopback(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  open.add(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Closes every server {@link listenLoopback} opened and their connections. */
export function closeLoopbackServers(): void {
  for (const s of open) {
    s.closeAllConnections();
    s.close();
  }
  open.clear();
}
