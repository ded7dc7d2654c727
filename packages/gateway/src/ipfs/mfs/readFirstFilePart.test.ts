import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilePartLimits, readFirstFilePart } from './readFirstFilePart.js';

// The first file part of a multipart body, streamed off a real socket in small pieces: the
// boundary found across pieces, the rest of the body dropped, limits refused with Kubo's errors,
// and the answer still written after a refusal.

let server: Server;
let url: string;
let limits: FilePartLimits = { maxBodyBytes: 1 << 20 };

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    (async () => {
      const chunks: Buffer[] = [];
      for await (const c of readFirstFilePart(req, limits)) chunks.push(Buffer.from(c));
      return Buffer.concat(chunks);
    })().then(
      (body) => res.end(JSON.stringify({ ok: body.toString('latin1') })),
      (err: { status?: number; message: string }) => {
        res.statusCode = err.status ?? 500;
        res.end(JSON.stringify({ error: err.message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `body` in pieces of `piece` bytes. */
function send(body: string, contentType: string, piece = 3): Promise<{ status: number; json: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    const bytes = Buffer.from(body, 'latin1');
    for (let i = 0; i < bytes.length; i += piece) req.write(bytes.subarray(i, i + piece));
    req.end();
  });
}

const multipart = (content: string, b = 'XyZ') =>
  `preamble\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n` +
  `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${b}\r\n` +
  `Content-Disposition: form-data; name="file-1"\r\n\r\nsecond part\r\n--${b}--\r\n`;
const TYPE = 'multipart/form-data; boundary=XyZ';

describe('readFirstFilePart', () => {
  it('hands on the first part only, whatever pieces the socket delivers', async () => {
    limits = { maxBodyBytes: 1 << 20 };
    for (const piece of [1, 2, 7, 1000]) {
      const content = 'line one\r\n--XyZnot-a-boundary\r\n--Xy\r\nend';
      expect(await send(multipart(content), TYPE, piece)).toEqual({ status: 200, json: { ok: content } });
    }
    expect((await send(multipart(''), TYPE)).json).toEqual({ ok: '' });
  });

  it('stops at maxContentBytes (Kubo’s count) and still reads the rest of the body', async () => {
    limits = { maxBodyBytes: 1 << 20, maxContentBytes: 4 };
    expect(await send(multipart('abcdefgh'), TYPE)).toEqual({ status: 200, json: { ok: 'abcd' } });
  });

  it('refuses what is not multipart or has no part (400), a body past the limit or a refused piece (413)', async () => {
    limits = { maxBodyBytes: 1 << 20 };
    expect(await send('plain', 'text/plain')).toEqual({
      status: 400,
      json: { error: 'file argument "data" is required' },
    });
    expect((await send('--XyZ--\r\n', TYPE)).status).toBe(400);
    expect(
      (await send(multipart('abc').split('\r\n--XyZ\r\n')[1]!.replace(/^/, '--XyZ\r\n'), TYPE)).json.error,
    ).toMatch(/no closing boundary/);
    limits = { maxBodyBytes: 50 };
    expect((await send(multipart('x'.repeat(100)), TYPE)).status).toBe(413);
    let admitted = 0;
    limits = {
      maxBodyBytes: 1 << 20,
      admit: (n) => {
        admitted += n;
        return admitted <= 10;
      },
      refusal: () => 'storage limit reached: no room',
    };
    expect(await send(multipart('y'.repeat(40)), TYPE, 5)).toEqual({
      status: 413,
      json: { error: 'storage limit reached: no room' },
    });
  });
});
