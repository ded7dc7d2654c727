// The baseline for a gateway that streams bodies: the least a Node proxy can do for an IPFS read
// (node:http in, node:http out, the answer piped through; no auth, no access check, no metering).
// `GET /ipfs/<cid>` becomes the node's `POST /api/v0/cat?arg=<cid>`. Usage: bareStreamProxy.ts NODE_API_URL
import { Agent, createServer, request } from 'node:http';

const node = new URL(process.argv[2]!);
const agent = new Agent({ keepAlive: true });
const server = createServer((req, res) => {
  const cid = (req.url ?? '').replace(/^\/ipfs\//, '').split(/[/?]/)[0]!;
  const up = request(
    {
      hostname: node.hostname,
      port: node.port,
      method: 'POST',
      path: `/api/v0/cat?arg=${encodeURIComponent(cid)}`,
      agent,
      headers: { 'content-length': '0' },
    },
    (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, { 'content-type': 'application/octet-stream' });
      upRes.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  up.end();
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` })}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
