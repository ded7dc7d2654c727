import { FsDatastore } from 'datastore-fs';
import { Key } from 'interface-datastore';
import { CID } from 'multiformats/cid';

/** A pin kept in the repo: `recursive` pins the whole DAG, `direct` only the block itself. */
export interface Pin {
  cid: CID;
  type: 'recursive' | 'direct';
  name: string;
}

interface StoredPin {
  cid: string;
  type: 'recursive' | 'direct';
  name: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Durable pins in a datastore-fs directory (one small file per pin, written atomically).
 * Pins are keyed by CIDv1 so `Qm…` and its CIDv1 form are the same pin; the CID as given is kept.
 */
export class PinStore {
  readonly store: FsDatastore;

  constructor(path: string) {
    this.store = new FsDatastore(path);
  }

  async open(): Promise<void> {
    await this.store.open();
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  private keyOf(cid: CID): Key {
    return new Key(`/pins/${cid.toV1().toString()}`);
  }

  async get(cid: CID): Promise<Pin | undefined> {
    const key = this.keyOf(cid);
    if (!(await this.store.has(key))) return undefined;
    return parse(await this.store.get(key));
  }

  async put(pin: Pin): Promise<void> {
    const stored: StoredPin = { cid: pin.cid.toString(), type: pin.type, name: pin.name };
    await this.store.put(this.keyOf(pin.cid), encoder.encode(JSON.stringify(stored)));
  }

  async delete(cid: CID): Promise<void> {
    await this.store.delete(this.keyOf(cid));
  }

  async *all(): AsyncGenerator<Pin> {
    for await (const pair of this.store.query({ prefix: '/pins' })) yield parse(pair.value);
  }
}

function parse(bytes: Uint8Array): Pin {
  const stored = JSON.parse(decoder.decode(bytes)) as StoredPin;
  return { cid: CID.parse(stored.cid), type: stored.type, name: stored.name };
}
