import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { canonicalCid } from '../../ipfs/canonicalCid.js';
import type { PinStore } from '../../ipfs/pins/PinStore.js';
import { WELCOME } from './welcomeState.js';

/** What {@link seedIpfsWelcome} found or did. */
export type IpfsWelcomeOutcome =
  | { readonly seeded: true; readonly cid: string }
  | { readonly seeded: false; readonly reason: 'seeded before' };

/** The longest the node may take to add the welcome file. */
const ADD_TIMEOUT_MS = 10_000;

/**
 * Adds the welcome file ({@link WELCOME}.ipfs) to the embedded IPFS node with Kubo's defaults
 * (CIDv0, so always the documented CID), pins it on the node, and records `key` (the development
 * key) as its owner in the gateway's pin records, so the scheduled collection keeps it and the key
 * sees it in `pin/ls` (and can remove it). Done once per data directory: `markerFile` is written
 * afterwards and its presence skips the seed, so a file the user unpinned is never added back.
 *
 * @example
 * await seedIpfsWelcome({ upstreamUrl: node.http, pins, key: devKey.key, markerFile: join(dataDir, 'ipfs', 'welcome.json') });
 */
export async function seedIpfsWelcome(options: {
  /** The node's API base (`http://127.0.0.1:PORT`, commands under `/api/v0/`). */
  readonly upstreamUrl: string;
  readonly pins: PinStore;
  readonly key: string;
  readonly markerFile: string;
}): Promise<IpfsWelcomeOutcome> {
  if (existsSync(options.markerFile)) return { seeded: false, reason: 'seeded before' };
  const form = new FormData();
  form.append('file', new Blob([WELCOME.ipfs.text]), WELCOME.ipfs.name);
  const res = await fetch(`${options.upstreamUrl}/api/v0/add?pin=true`, {
    method: 'POST',
    body: form,
    signal: AbortSignal.timeout(ADD_TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the IPFS node refused the welcome file (${res.status}): ${text.slice(0, 200)}`);
  const added = JSON.parse(text.trim().split('\n').pop() ?? '{}') as { Hash?: string; Size?: string };
  const cid = typeof added.Hash === 'string' ? canonicalCid(added.Hash) : undefined;
  if (cid === undefined) throw new Error(`the IPFS node's add answer has no CID: ${text.slice(0, 200)}`);
  await options.pins.add(options.key, [{ cid, type: 'recursive', size: Number(added.Size ?? 0) }]);
  const tmp = `${options.markerFile}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ cid, key: `${options.key.slice(0, 4)}…` })}\n`, { mode: 0o600 });
  await rename(tmp, options.markerFile);
  return { seeded: true, cid };
}
