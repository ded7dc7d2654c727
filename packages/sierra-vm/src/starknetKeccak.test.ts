import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { LONG_GENERIC_IDS } from './constants.js';
import { starknetKeccak } from './starknetKeccak.js';

describe('starknetKeccak', () => {
  it('agrees with starknet.js on short, block-sized and multi-block inputs', () => {
    for (const text of ['', 'a', 'transfer', 'x'.repeat(135), 'y'.repeat(136), 'z'.repeat(300), 'héllo ✓']) {
      expect(starknetKeccak(text)).toBe(hash.starknetKeccak(text));
    }
  });

  it('gives the known selector of `transfer`', () => {
    expect(starknetKeccak('transfer')).toBe(0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12en);
  });

  it('gives the hashes listed in LONG_GENERIC_IDS', () => {
    for (const [name, h] of LONG_GENERIC_IDS) expect(starknetKeccak(name)).toBe(h);
  });
});
