import { describe, expect, it } from 'vitest';
import { createSpecValidator } from './createSpecValidator.js';

const spec = createSpecValidator(
  new URL('../../../../../shared/fixtures/starknet-specs-0.10.2/api', import.meta.url).pathname,
);

describe('createSpecValidator', () => {
  it('checks params by name, required ones and their schemas (refs across documents resolved)', () => {
    const ok = { contract_address: '0x1', key: '0x2', block_id: 'latest' };
    expect(spec.checkParams('getStorageAt', ok)).toBeUndefined();
    expect(spec.checkParams('getStorageAt', { ...ok, response_flags: ['INCLUDE_LAST_UPDATE_BLOCK'] })).toBeUndefined();
    expect(spec.checkParams('getStorageAt', { ...ok, response_flags: ['NOPE'] })).toMatch(/response_flags/);
    expect(spec.checkParams('getStorageAt', { key: '0x2', block_id: 'latest' })).toMatch(/contract_address/);
    expect(spec.checkParams('getStorageAt', { ...ok, extra: 1 })).toMatch(/additional/);
    expect(spec.checkParams('getStorageAt', { ...ok, block_id: 'tomorrow' })).toBeDefined();
    // a write document's param refers to the read document's schemas
    expect(spec.checkParams('addInvokeTransaction', { invoke_transaction: { type: 'INVOKE' } })).toBeDefined();
  });

  it('checks results and lists the errors a method may give', () => {
    expect(spec.checkResult('blockNumber', 12)).toBeUndefined();
    expect(spec.checkResult('blockNumber', '0xc')).toBeDefined();
    expect(spec.checkResult('blockHashAndNumber', { block_hash: '0x1', block_number: 1 })).toBeUndefined();
    expect(spec.checkResult('blockHashAndNumber', { block_hash: '0x1' })).toMatch(/block_number/);
    expect(spec.errorCodes('getStorageProof')).toEqual(expect.arrayContaining([24, 42]));
    expect(spec.errorCodes('getCompiledCasm')).toEqual(expect.arrayContaining([100, 28]));
  });
});
