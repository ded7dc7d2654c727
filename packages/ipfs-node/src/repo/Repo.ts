import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BlockStore } from './BlockStore.js';
import { type Identity, loadIdentity } from './loadIdentity.js';
import { lockRepo } from './lockRepo.js';
import { PinStore } from './PinStore.js';
import { RwLock } from './RwLock.js';

/**
 * An IPFS repo directory:
 * `blocks/` (blockstore-fs), `datastore/` (datastore-fs: pins), `config.json` (identity), `repo.lock`.
 */
export class Repo {
  readonly path: string;
  readonly blocks: BlockStore;
  readonly pins: PinStore;
  readonly identity: Identity;
  /** Shared by commands that store and pin; exclusive for garbage collection. */
  readonly gcLock = new RwLock();
  private readonly unlock: () => Promise<void>;

  private constructor(path: string, identity: Identity, unlock: () => Promise<void>) {
    this.path = path;
    this.identity = identity;
    this.unlock = unlock;
    this.blocks = new BlockStore(join(path, 'blocks'));
    this.pins = new PinStore(join(path, 'datastore'));
  }

  /** Opens (creating if needed) and locks the repo at `dir`. */
  static async open(dir: string): Promise<Repo> {
    const path = resolve(dir);
    await mkdir(path, { recursive: true });
    const unlock = await lockRepo(path);
    try {
      const identity = await loadIdentity(path);
      const repo = new Repo(path, identity, unlock);
      await repo.blocks.open();
      await repo.pins.open();
      return repo;
    } catch (err) {
      await unlock();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.blocks.close();
    await this.pins.close();
    await this.unlock();
  }
}
