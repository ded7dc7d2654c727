// The baseline for gateway overhead: the least a Node proxy can do (node:http in,
// undici pool out, no auth, no parsing, no validation). Usage: bareProxy.ts UPSTREAM_URL
// GET /event-loop-delay answers its event loop's delay since the last such GET (p99 and max, ms
// beyond the 10 ms it samples at, as the gateway's /metrics reads in bench/support/processProbe.ts).
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';

const upstream = new URL(process.argv[2]!);
const pool = new Pool(upstream.origin, { connections: 128, keepAliveTimeout: 30_000 });
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/event-loop-delay') {
    const beyond = (ns: number) => Math.max(0, ns / 1e6 - 10);
    const answer = JSON.stringify({ p99: beyond(loop.percentile(99)), max: beyond(loop.max) });
    loop.reset();
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    pool
      .request({
        path: upstream.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
      .then(async (r) => {
        const body = Buffer.from(await r.body.arrayBuffer());
        res.writeHead(r.statusCode, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` })}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
