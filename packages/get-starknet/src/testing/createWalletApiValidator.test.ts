import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createWalletApiValidator } from './createWalletApiValidator.js';

const SPECS = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'starknet-specs-0.10.2',
);
const spec = createWalletApiValidator(SPECS);
const HASH = `0x${'0'.repeat(61)}abc`;

describe('createWalletApiValidator (the validator the integration test holds the connector to)', () => {
  it('accepts what the spec allows and names what it does not', () => {
    expect(spec.checkResult('wallet_requestChainId', '0x534e5f5345504f4c4941')).toBeUndefined();
    expect(spec.checkResult('wallet_requestChainId', 'SN_SEPOLIA')).toMatch(/pattern/);
    expect(spec.checkResult('wallet_requestAccounts', ['0x123', '0xabc'])).toBeUndefined();
    expect(spec.checkResult('wallet_requestAccounts', ['0x0123'])).toMatch(/pattern/); // a felt has no leading zeros
    expect(spec.checkResult('wallet_addInvokeTransaction', { transaction_hash: HASH })).toBeUndefined();
    expect(spec.checkResult('wallet_addInvokeTransaction', { transaction_hash: '0xabc' })).toMatch(/pattern/);
    expect(spec.checkResult('wallet_addDeclareTransaction', { transaction_hash: HASH })).toMatch(/class_hash/);
    expect(spec.checkResult('wallet_signTypedData', ['0x1', '0x2'])).toBeUndefined();
    expect(spec.checkResult('wallet_signTypedData', 'r,s')).toBeDefined();
    expect(spec.checkResult('wallet_getPermissions', [])).toBeUndefined();
    expect(spec.checkResult('wallet_supportedSpecs', ['0.10'])).toBeUndefined();
    expect(
      spec.checkResult('wallet_deploymentData', {
        address: '0x1',
        class_hash: '0x2',
        salt: '0x3',
        calldata: [],
        version: 1,
      }),
    ).toBeUndefined();
    expect(
      spec.checkResult('wallet_deploymentData', {
        address: '0x1',
        class_hash: '0x2',
        salt: '0x3',
        calldata: [],
        version: 2,
      }),
    ).toMatch(/version/);
  });

  it('errors: the code must be one the method lists, with the spec message', () => {
    expect(
      spec.checkError('wallet_watchAsset', { code: 111, message: 'An error occurred (NOT_ERC20)' }),
    ).toBeUndefined();
    expect(
      spec.checkError('wallet_watchAsset', { code: 114, message: 'An error occurred (INVALID_REQUEST_PAYLOAD)' }),
    ).toBeUndefined();
    expect(spec.checkError('wallet_watchAsset', { code: 111, message: 'not a token' })).toMatch(/message/);
    expect(spec.checkError('wallet_requestChainId', { code: 111, message: 'An error occurred (NOT_ERC20)' })).toMatch(
      /does not list NOT_ERC20/,
    );
    expect(spec.checkError('wallet_signTypedData', { code: 4001, message: 'x' })).toMatch(/not a wallet API error/);
  });
});
