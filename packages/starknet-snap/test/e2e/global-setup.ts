/**
 * E2E global setup: start the backend on an ephemeral port, then build the snap into dist/e2e with that backend's
 * URL, key and account classes baked in (the test network, SN_SEPOLIA). snaps-jest serves dist/e2e. The committed
 * manifest (built by scripts/prepare.mjs with the default configuration) is not touched.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKEND_FILE, startBackend } from './backend';

const PKG = join(__dirname, '..', '..');
const OUT = join(PKG, 'dist', 'e2e');

export default async function globalSetup(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'images'), { recursive: true });
  copyFileSync(join(PKG, 'package.json'), join(OUT, 'package.json'));
  copyFileSync(join(PKG, 'snap.manifest.json'), join(OUT, 'snap.manifest.json'));
  copyFileSync(join(PKG, 'images', 'icon.svg'), join(OUT, 'images', 'icon.svg'));

  const { info, child } = await startBackend();
  (globalThis as { __SNAP_E2E_BACKEND__?: unknown }).__SNAP_E2E_BACKEND__ = info;
  child.unref();
  writeFileSync(BACKEND_FILE, JSON.stringify(info, null, 2));

  const build = spawnSync(join(PKG, '..', '..', 'node_modules', '.bin', 'mm-snap'), ['build'], {
    cwd: PKG,
    encoding: 'utf8',
    env: {
      ...process.env,
      SNAP_OUT_DIR: OUT,
      SNAP_SEPOLIA_URL: info.baseUrl,
      SNAP_SEPOLIA_API_KEY: info.apiKey,
      SNAP_SEPOLIA_ACCOUNT_CLASS_HASH: info.accountClassHash,
      SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH: info.latestAccountClassHash,
      // Mainnet points at a closed port, so tests can check the unreachable-node error.
      SNAP_MAINNET_URL: 'http://127.0.0.1:9/starknet-mainnet',
    },
  });
  if (build.status !== 0) {
    throw new Error(`building the e2e snap failed:\n${build.stdout}\n${build.stderr}`);
  }
}
