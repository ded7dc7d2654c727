import type { SnapConfig } from '@metamask/snaps-cli';

/**
 * Build configuration. Every network setting is read from the environment at build time and baked into the bundle
 * (see README "Build configuration"). Unset variables fall back to the defaults below.
 * SNAP_OUT_DIR builds into another folder (with its own manifest), as the e2e tests do, leaving the committed
 * manifest alone.
 */
const out = process.env.SNAP_OUT_DIR;

/**
 * Build-time network settings; each can be overridden by an environment variable of the same name. The defaults are
 * the default gateway's (`npm start`, `packages/gateway/src/config/embeddedConfig.ts`): the snap's test network
 * (chain id SN_SEPOLIA, which the embedded Starknet dev chain reports) is its `starknet-devnet` network on
 * 127.0.0.1:8550, with the dev chain's Argent-style account classes; it serves no Starknet mainnet, so mainnet has no
 * URL. The API key is per gateway, so none is built in: `npm run snap` (scripts/serveSnap.mjs) builds with the
 * development key of the gateway's data directory. `test/unit/buildDefaults.test.ts` holds these to the gateway's
 * embedded config and the dev chain's classes.
 */
export const BUILD_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  SNAP_MAINNET_URL: '',
  SNAP_MAINNET_API_KEY: '',
  SNAP_MAINNET_ACCOUNT_CLASS_HASH: '',
  SNAP_MAINNET_LATEST_ACCOUNT_CLASS_HASH: '',
  SNAP_SEPOLIA_URL: 'http://127.0.0.1:8550/starknet-devnet',
  SNAP_SEPOLIA_API_KEY: '',
  // the dev chain's `nodegate::argent::ArgentAccount_v0_3_0` (new accounts) and `_v0_4_0` (the upgrade target)
  SNAP_SEPOLIA_ACCOUNT_CLASS_HASH: '0x60f35ef398977e1fb3754056a059478acd6cbf25467058ffb01c4f3f668575a',
  SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH: '0x2205552fb15cb533eb4661e5a1bcb25d13d9c3c9b6b13b52c827726ec6bb62c',
});

const config: SnapConfig = {
  input: 'src/index.ts',
  sourceMap: false,
  output: out ? { path: `${out}/dist`, clean: false } : { path: 'dist', clean: false },
  manifest: { path: out ? `${out}/snap.manifest.json` : 'snap.manifest.json', update: true },
  server: { port: 8081 },
  polyfills: { buffer: true },
  stats: { builtIns: { ignore: ['crypto'] } },
  environment: Object.fromEntries(Object.entries(BUILD_DEFAULTS).map(([k, v]) => [k, process.env[k] ?? v])),
};

export default config;
