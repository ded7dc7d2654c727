import { connect } from 'node:net';
import { Pool } from 'undici';
import { startAnvil } from '/work/main/packages/gateway/dist/embedded/startAnvil.js';
import { postJson } from '/work/main/packages/gateway/dist/upstream/postJson.js';

const anvil = await startAnvil();
const url = new URL(anvil.http);
const pool = new Pool(url.origin, { connections: 128, keepAliveTimeout: 30000 });
const headers = ['content-type', 'application/json'];
const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const viaUndici = () => postJson(pool, url.pathname, headers, body);

// minimal raw client
const idle = [];
const waiting = [];
let open = 0;
const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: `;
function dial() {
  const c = { buf: Buffer.allocUnsafeSlow(65536), pending: null, text: '', state: 0, len: -1 };
  c.socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true, onread: { buffer: c.buf, callback: (n) => onRead(c, n) } });
  open++;
  c.socket.on('error', () => {});
  return c;
}
function onRead(c, n) {
  // assume head + body in one read with content-length
  const s = c.buf.latin1Slice(0, n);
  const sp = s.indexOf(' ');
  const status = +s.slice(sp + 1, sp + 4);
  const end = s.indexOf('\r\n\r\n');
  const i = s.indexOf('content-length: ');
  const len = +s.slice(i + 16, s.indexOf('\r\n', i));
  const text = c.buf.utf8Slice(end + 4, end + 4 + len);
  const p = c.pending; c.pending = null;
  const next = waiting.shift();
  if (next) { c.pending = next.p; c.socket.write(next.req); } else idle.push(c);
  p.resolve({ status, text });
  return true;
}
function viaRaw() {
  return new Promise((resolve, reject) => {
    const req = `${head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
    let c = idle.pop();
    if (!c) { if (open >= 128) { waiting.push({ p: { resolve, reject }, req }); return; } c = dial(); }
    c.pending = { resolve, reject };
    c.socket.write(req);
  });
}
async function run(f, n, conc) {
  let i = 0;
  const t = process.cpuUsage(); const w = performance.now();
  await Promise.all(Array.from({ length: conc }, async () => { while (i++ < n) { const r = await f(); if (r.status !== 200) throw new Error('status'); } }));
  const u = process.cpuUsage(t);
  return { cpuUs: (u.user + u.system) / n, rps: n / ((performance.now() - w) / 1000) };
}
console.log((await viaRaw()).text);
for (let round = 0; round < 4; round++) {
  const a = await run(viaUndici, 20000, 50);
  const b = await run(viaRaw, 20000, 50);
  console.log(`undici ${a.cpuUs.toFixed(1)} µs ${a.rps.toFixed(0)}/s   raw ${b.cpuUs.toFixed(1)} µs ${b.rps.toFixed(0)}/s`);
}
await pool.close(); await anvil.stop(); process.exit(0);
