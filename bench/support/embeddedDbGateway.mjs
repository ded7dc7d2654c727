// node bench/support/embeddedDbGateway.mjs <dataDir> <sqlite|pglite> <worker|inline> <readyFile> [memoryFile]
// The gateway on the embedded defaults (as `npm start` runs it: anvil, the dev chain, the IPFS
// node, the dev key), with the embedded database's engine and thread chosen, for the comparison
// bench (bench/embedded-db.ts). Plain JavaScript over the build, so that nothing but the gateway
// is in the process whose memory is measured. Writes the ready file; stops on SIGTERM.
import { rename, writeFile } from 'node:fs/promises';
import { embeddedConfig } from '../../packages/gateway/dist/config/embeddedConfig.js';
import { startGateway } from '../../packages/gateway/dist/main.js';

const [dataDir, engine, thread, readyFile, memoryFile] = process.argv.slice(2);
const config = embeddedConfig({ listen: '127.0.0.1:0', dataDir });
// the access log is written as `npm start` writes it: to a file in the data directory
const gw = await startGateway(config, { embeddedDatabase: { engine, thread } });
await writeFile(
  `${readyFile}.tmp`,
  JSON.stringify({ url: gw.url, networks: gw.networks, devKey: gw.devKey, admin: gw.admin }),
);
await rename(`${readyFile}.tmp`, readyFile);
// where the memory goes, every 5 s (what the README's footprint section reports)
if (memoryFile) {
  const { appendFile } = await import('node:fs/promises');
  const { getHeapSpaceStatistics } = await import('node:v8');
  const mb = (n) => Math.round(n / 1048576);
  const started = Date.now();
  setInterval(() => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_size)]));
    void appendFile(
      memoryFile,
      `${JSON.stringify({ s: Math.round((Date.now() - started) / 1000), rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces })}\n`,
    );
  }, 5000).unref();
}
let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  gw.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
