import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './postJson.js';

let server: Server;
let pool: Pool;
let closedEarly = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      if (req.url === '/chunks') {
        // the answer in three writes: the handler must join them
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"echo":');
        setTimeout(() => {
          res.write(JSON.stringify(body));
          res.end('}');
        }, 20);
      } else if (req.url === '/slow') {
        res.on('close', () => {
          if (!res.writableEnded) closedEarly++;
        });
      } else {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await pool.destroy();
  server.closeAllConnections();
  server.close();
});

describe('postJson', () => {
  it('sends the body and joins a chunked answer', async () => {
    const answer = await postJson(pool, '/chunks', ['content-type', 'application/json'], '{"a":1}');
    expect(answer).toEqual({ status: 200, text: '{"echo":"{\\"a\\":1}"}' });
  });

  it('resolves non-200 answers with their status and body', async () => {
    expect(await postJson(pool, '/other', [], '{}')).toEqual({ status: 503, text: 'busy' });
  });

  it('abandons the request upstream when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = postJson(pool, '/slow', [], '{}', controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect.poll(() => closedEarly).toBe(1);
  });

  it('rejects at once with an already aborted signal', async () => {
    const reason = new Error('gone');
    await expect(postJson(pool, '/chunks', [], '{}', AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
