import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTcpProxy } from './createTcpProxy.js';

let echo: Server;
let echoPort: number;

beforeAll(async () => {
  echo = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  echoPort = (echo.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => echo.close(() => r())));

/** A client of the proxy that collects what it reads and whether it was closed. */
async function dial(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  return { socket, received: () => received, closed: () => closed };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createTcpProxy', () => {
  it('forwards, holds bytes while stalled (the socket stays open) and delivers them on restore', async () => {
    const proxy = await createTcpProxy(`127.0.0.1:${echoPort}`);
    const c = await dial(proxy.port);
    c.socket.write('one');
    await sleep(100);
    expect(c.received()).toBe('one');
    proxy.stall();
    expect(proxy.state).toBe('stalled');
    c.socket.write('two');
    await sleep(200);
    expect(c.received()).toBe('one');
    expect(c.closed()).toBe(false);
    proxy.restore();
    await sleep(100);
    expect(c.received()).toBe('onetwo');
    c.socket.destroy();
    await proxy.close();
  });

  it('a connection made while stalled is held and reaches the target on restore', async () => {
    const proxy = await createTcpProxy(`redis://127.0.0.1:${echoPort}`);
    proxy.stall();
    const c = await dial(proxy.port);
    c.socket.write('late');
    await sleep(150);
    expect(c.received()).toBe('');
    proxy.restore();
    await sleep(100);
    expect(c.received()).toBe('late');
    c.socket.destroy();
    await proxy.close();
  });

  it('cut resets open connections and closes new ones until restored', async () => {
    const proxy = await createTcpProxy({ host: '127.0.0.1', port: echoPort });
    const c = await dial(proxy.port);
    proxy.cut();
    await sleep(100);
    expect(c.closed()).toBe(true);
    expect(proxy.connections()).toBe(0);
    const refused = await dial(proxy.port);
    refused.socket.write('lost');
    await sleep(100);
    expect(refused.closed()).toBe(true);
    expect(refused.received()).toBe('');
    proxy.restore();
    const again = await dial(proxy.port);
    again.socket.write('back');
    await sleep(100);
    expect(again.received()).toBe('back');
    again.socket.destroy();
    await proxy.close();
  });
});
