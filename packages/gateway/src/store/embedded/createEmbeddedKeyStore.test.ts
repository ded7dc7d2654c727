import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { keyStoreContract } from '../keyStoreContract.js';
import { createEmbeddedKeyStore } from './createEmbeddedKeyStore.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-keystore-'));
let n = 0;
let current = '';
afterAll(() => rm(root, { recursive: true, force: true }));

keyStoreContract(
  'embedded (PGlite)',
  () => {
    current = join(root, `db${n++}`);
    return createEmbeddedKeyStore(current);
  },
  () => createEmbeddedKeyStore(current),
);
