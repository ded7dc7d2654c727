import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running echo server: its base URL and how to stop it. */
export interface EchoServer {
  /** `http://127.0.0.1:<port>`, what interface-ipfs-core reads from `ECHO_SERVER`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The HTTP server interface-ipfs-core's "add from a URL" tests fetch from (aegir's test runner
 * starts one and exports its address as `ECHO_SERVER`): `GET /download?data=<text>` answers the
 * text, `GET /redirect?to=<url>` redirects there (302); anything else is 404. Listens on
 * 127.0.0.1 only.
 *
 * @example
 * const echo = await startEchoServer();
 * process.env.ECHO_SERVER = echo.url;
 */
export async function startEchoServer(): Promise<EchoServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const data = url.searchParams.get('data');
    const to = url.searchParams.get('to');
    if (url.pathname === '/download' && data !== null) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
    } else if (url.pathname === '/redirect' && to !== null) {
      res.writeHead(302, { location: to }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
