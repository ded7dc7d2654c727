import type { SnapConfig } from '@metamask/snaps-cli';

/**
 * Build configuration. Every network setting is read from the environment at build time and baked into the bundle
 * (see README "Build configuration"). Unset variables fall back to the defaults below.
 * SNAP_OUT_DIR builds into another folder (with its own manifest), as the e2e tests do, leaving the committed
 * manifest alone.
 */
const out = process.env.SNAP_OUT_DIR;

/** Build-time network settings; each can be overridden by an environment variable of the same name. */
const DEFAULTS: Record<string, string> = {
  SNAP_MAINNET_URL: 'http://127.0.0.1:8545/starknet-mainnet',
  SNAP_MAINNET_API_KEY: '',
  SNAP_MAINNET_ACCOUNT_CLASS_HASH: '',
  SNAP_MAINNET_LATEST_ACCOUNT_CLASS_HASH: '',
  SNAP_SEPOLIA_URL: 'http://127.0.0.1:8545/starknet-sepolia',
  SNAP_SEPOLIA_API_KEY: '',
  SNAP_SEPOLIA_ACCOUNT_CLASS_HASH: '',
  SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH: '',
};

const config: SnapConfig = {
  input: 'src/index.ts',
  sourceMap: false,
  output: out ? { path: `${out}/dist`, clean: false } : { path: 'dist', clean: false },
  manifest: { path: out ? `${out}/snap.manifest.json` : 'snap.manifest.json', update: true },
  server: { port: 8081 },
  polyfills: { buffer: true },
  stats: { builtIns: { ignore: ['crypto'] } },
  environment: Object.fromEntries(Object.entries(DEFAULTS).map(([k, v]) => [k, process.env[k] ?? v])),
};

export default config;
