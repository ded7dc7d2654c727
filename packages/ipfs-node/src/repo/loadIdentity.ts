import { generateKeyPairSync } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { base58btc } from 'multiformats/bases/base58';

/** The node's libp2p-style identity (an Ed25519 key; the node makes no peer connections). */
export interface Identity {
  /** Peer ID, `12D3KooW…`. */
  peerId: string;
  /** Base64 of the protobuf-encoded public key, as Kubo's `id` shows it. */
  publicKey: string;
}

interface StoredConfig {
  Identity: { PeerID: string; PublicKey: string; PrivKey: string };
}

/** Reads the identity from `<repo>/config.json`, creating it on first start. */
export async function loadIdentity(repo: string): Promise<Identity> {
  const file = join(repo, 'config.json');
  try {
    const config = JSON.parse(await readFile(file, 'utf8')) as StoredConfig;
    return { peerId: config.Identity.PeerID, publicKey: config.Identity.PublicKey };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  // libp2p PublicKey protobuf: field 1 KeyType = Ed25519 (1), field 2 Data = 32 bytes.
  const proto = Uint8Array.from([0x08, 0x01, 0x12, 0x20, ...raw]);
  // identity multihash of the protobuf key
  const peerId = base58btc.baseEncode(Uint8Array.from([0x00, proto.length, ...proto]));
  const config: StoredConfig = {
    Identity: {
      PeerID: peerId,
      PublicKey: Buffer.from(proto).toString('base64'),
      PrivKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    },
  };
  await writeFile(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return { peerId, publicKey: config.Identity.PublicKey };
}
