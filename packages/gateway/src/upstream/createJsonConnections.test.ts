import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonConnections } from './createJsonConnections.js';
import { jsonPosterContract } from './jsonPosterContract.js';

jsonPosterContract('createJsonConnections (nodegate)', createJsonConnections);

describe('createJsonConnections beyond the contract', () => {
  let server: Server;
  let url: URL;
  let script: (socket: Socket) => void;
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => script(socket));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('skips informational heads (undici refuses them)', async () => {
    script = (socket) =>
      socket.write(
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early\r\nlink: x\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}',
      );
    const poster = createJsonConnections(url, [], { timeoutMs: 1_000 });
    expect(await poster.post('{}')).toEqual({ status: 200, text: '{}' });
    await poster.close();
  });

  it('an answer followed by bytes nobody asked for is given, and its connection is not used again', async () => {
    let connections = 0;
    server.once('connection', () => connections++);
    script = (socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\n');
    const poster = createJsonConnections(url, [], { timeoutMs: 1_000 });
    expect(await poster.post('{}')).toEqual({ status: 200, text: '{}' });
    server.once('connection', () => connections++);
    expect(await poster.post('{}')).toEqual({ status: 200, text: '{}' });
    expect(connections).toBe(2);
    await poster.close();
  });

  it('refuses an answer over its head bound or with two lengths, and a URL that is not http(s)', async () => {
    script = (socket) => socket.write(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(70_000)}\r\n\r\n`);
    const poster = createJsonConnections(url, [], { timeoutMs: 1_000 });
    await expect(poster.post('{}')).rejects.toMatchObject({ code: 'NG_BAD_ANSWER' });
    script = (socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}');
    await expect(poster.post('{}')).rejects.toMatchObject({ code: 'NG_BAD_ANSWER' });
    await poster.close();
    await expect(poster.post('{}')).rejects.toMatchObject({ code: 'NG_CLOSED' });
    expect(() => createJsonConnections(new URL('ws://127.0.0.1:1/'), [], { timeoutMs: 1_000 })).toThrow(/http/);
    expect(() => createJsonConnections(url, ['x-bad', 'a\r\nb'], { timeoutMs: 1_000 })).toThrow(/visible ASCII/);
  });
});
