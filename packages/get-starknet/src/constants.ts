/** Constants of the connector. */

/**
 * The snap id used when none is given: the snap `npm run snap` serves for MetaMask Flask (scripts/serveSnap.mjs,
 * built for the local gateway with its development key). `@nodegate/starknet-snap` is not published on npm; a
 * published build would be installed as {@link NPM_SNAP_ID}, passed as `snapId`.
 */
export const DEFAULT_SNAP_ID = 'local:http://localhost:8080';
/** The snap's id on npm, for a published build (pass it as `snapId`); not published today. */
export const NPM_SNAP_ID = 'npm:@nodegate/starknet-snap';
/** Starknet main network chain id (`SN_MAIN`). */
export const SN_MAIN = '0x534e5f4d41494e';
/** Starknet test network chain id (`SN_SEPOLIA`). */
export const SN_SEPOLIA = '0x534e5f5345504f4c4941';
/** The chains the snap serves. */
export const KNOWN_CHAINS: readonly string[] = [SN_MAIN, SN_SEPOLIA];
/** The wallet API versions this wallet implements. */
export const SUPPORTED_WALLET_API: readonly string[] = ['0.8'];
/** The Starknet JSON-RPC versions nodegate (and so the snap) serves. */
export const SUPPORTED_SPECS: readonly string[] = ['0.10'];
/** EIP-6963 rdns of MetaMask builds that run snaps, in order of preference. */
export const METAMASK_RDNS: readonly string[] = ['io.metamask', 'io.metamask.flask'];
/** The wallet's id in get-starknet. */
export const WALLET_ID = 'nodegate';
/** The wallet's display name. */
export const WALLET_NAME = 'nodegate (MetaMask)';
/** The connector's version. */
export const WALLET_VERSION = '0.1.0';
/** The wallet's icon (an SVG data URL). */
export const WALLET_ICON =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iNiIgZmlsbD0iIzBjMGMyYSIvPjxwYXRoIGQ9Ik05IDIzVjlsMTQgMTRWOSIgc3Ryb2tlPSIjZmY4NzVhIiBzdHJva2Utd2lkdGg9IjMiIGZpbGw9Im5vbmUiLz48L3N2Zz4=';
