import { createServer, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import type { KeyCommands } from './keyCommands.js';

/**
 * The running gateway's admin endpoint: a Unix socket in the data directory (guarded by
 * file permissions), used by `nodegate keys …` while the gateway owns the database.
 */
export async function startAdminSocket(path: string, commands: KeyCommands): Promise<{ close(): Promise<void> }> {
  await rm(path, { force: true });
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
      if (body.length > 65_536) req.destroy();
    });
    req.on('end', () => {
      void (async () => {
        try {
          const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
          let out: unknown;
          if (req.method === 'POST' && req.url === '/keys') {
            out = await commands.create({
              ...(typeof input.name === 'string' ? { name: input.name } : {}),
              ...(typeof input.plan === 'string' ? { plan: input.plan } : {}),
            });
          } else if (req.method === 'GET' && req.url === '/keys') {
            out = await commands.list();
          } else if (req.method === 'POST' && req.url === '/keys/revoke' && typeof input.key === 'string') {
            out = { revoked: await commands.revoke(input.key) };
          } else {
            res.writeHead(404).end('{"error":"unknown admin command"}');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
        } catch (err) {
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: (err as Error).message }));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}
