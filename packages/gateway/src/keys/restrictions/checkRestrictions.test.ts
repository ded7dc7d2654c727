import { describe, expect, it } from 'vitest';
import { type KeySettings, OPEN_SETTINGS } from '../KeySettings.js';
import { checkRestrictions } from './checkRestrictions.js';
import { contractsAllowed } from './contractsAllowed.js';
import { methodAllowed } from './methodAllowed.js';
import { normalizeContractAddress } from './normalizeContractAddress.js';
import { userAgentAllowed } from './userAgentAllowed.js';

const settings = (patch: Partial<KeySettings>): KeySettings => ({ ...OPEN_SETTINGS, ...patch });
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const FELT = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

describe('userAgentAllowed', () => {
  const s = settings({ allowedUserAgents: ['MyWallet/', 'ethers'] });
  it('matches a substring of any entry, case-sensitively', () => {
    expect(userAgentAllowed(s, 'Mozilla/5.0 MyWallet/2.1')).toBe(true);
    expect(userAgentAllowed(s, 'ethers/6.13 (node)')).toBe(true);
    expect(userAgentAllowed(s, 'mywallet/2.1')).toBe(false);
    expect(userAgentAllowed(s, 'curl/8.0')).toBe(false);
  });
  it('refuses a missing UA when the list is non-empty; an empty list allows all', () => {
    expect(userAgentAllowed(s, undefined)).toBe(false);
    expect(userAgentAllowed(OPEN_SETTINGS, undefined)).toBe(true);
  });
});

describe('methodAllowed', () => {
  it('matches exact names; an empty list allows all', () => {
    const s = settings({ allowedMethods: ['eth_call', 'pin/add'] });
    expect(methodAllowed(s, 'eth_call')).toBe(true);
    expect(methodAllowed(s, 'pin/add')).toBe(true);
    expect(methodAllowed(s, 'eth_Call')).toBe(false);
    expect(methodAllowed(s, 'eth_callx')).toBe(false);
    expect(methodAllowed(OPEN_SETTINGS, 'anything')).toBe(true);
  });
});

describe('normalizeContractAddress', () => {
  it('lower-cases and strips leading zeros; refuses non-hex', () => {
    expect(normalizeContractAddress(TOKEN)).toBe(TOKEN.toLowerCase());
    expect(normalizeContractAddress('0x0000abc')).toBe('0xabc');
    expect(normalizeContractAddress('0x000')).toBe('0x0');
    expect(normalizeContractAddress('0x')).toBeUndefined();
    expect(normalizeContractAddress('abc')).toBeUndefined();
    expect(normalizeContractAddress(`0x${'1'.repeat(65)}`)).toBeUndefined();
    expect(normalizeContractAddress(`0x00${'1'.repeat(64)}`)).toBe(`0x${'1'.repeat(64)}`);
    expect(normalizeContractAddress(12)).toBeUndefined();
  });
});

describe('contractsAllowed', () => {
  const s = settings({ allowedContracts: [TOKEN, FELT] });
  it('undefined (the method names no contract) is allowed', () => {
    expect(contractsAllowed(s, undefined)).toBe(true);
  });
  it('an empty list of allowed contracts allows everything, even no address', () => {
    expect(contractsAllowed(OPEN_SETTINGS, [])).toBe(true);
    expect(contractsAllowed(OPEN_SETTINGS, ['0x1'])).toBe(true);
  });
  it('compares Ethereum addresses case-insensitively and felts numerically', () => {
    expect(contractsAllowed(s, [TOKEN.toLowerCase()])).toBe(true);
    expect(contractsAllowed(s, [TOKEN.toUpperCase().replace('0X', '0x')])).toBe(true);
    expect(contractsAllowed(s, ['0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'])).toBe(true);
    expect(contractsAllowed(s, ['0x00049D36570D4E46F48E99674BD3FCC84644DDD6B96F7C741B1562B82F9E004DC7'])).toBe(true);
  });
  it('every named address must be listed', () => {
    expect(contractsAllowed(s, [TOKEN, FELT])).toBe(true);
    expect(contractsAllowed(s, [TOKEN, '0x0000000000000000000000000000000000000001'])).toBe(false);
    expect(contractsAllowed(s, ['not-an-address'])).toBe(false);
  });
  it('refuses a method called without a contract (empty array) when the list is non-empty', () => {
    expect(contractsAllowed(s, [])).toBe(false);
  });
});

describe('checkRestrictions', () => {
  const full = settings({
    allowedOrigins: ['https://app.example.com'],
    allowedUserAgents: ['MyWallet'],
    allowedMethods: ['eth_call', 'eth_chainId'],
    allowedContracts: [TOKEN],
  });
  const ok = { origin: 'https://app.example.com', userAgent: 'MyWallet/1', method: 'eth_call', contracts: [TOKEN] };

  it('passes an open key and a request that satisfies every list', () => {
    expect(
      checkRestrictions(OPEN_SETTINGS, { origin: undefined, userAgent: undefined, method: 'x', contracts: [] }),
    ).toBeUndefined();
    expect(checkRestrictions(full, ok)).toBeUndefined();
    expect(checkRestrictions(full, { ...ok, method: 'eth_chainId', contracts: undefined })).toBeUndefined();
  });

  it('names the rule kind that refused, in order', () => {
    expect(checkRestrictions(full, { ...ok, origin: 'https://evil.example' })).toBe('origin');
    expect(checkRestrictions(full, { ...ok, origin: undefined, userAgent: 'curl' })).toBe('origin');
    expect(checkRestrictions(full, { ...ok, userAgent: undefined })).toBe('user-agent');
    expect(checkRestrictions(full, { ...ok, method: 'eth_getLogs' })).toBe('method');
    expect(checkRestrictions(full, { ...ok, contracts: ['0x0000000000000000000000000000000000000002'] })).toBe(
      'contract',
    );
    expect(checkRestrictions(full, { ...ok, contracts: [] })).toBe('contract');
  });

  it('checks only the connection when no method is given', () => {
    expect(checkRestrictions(full, { origin: ok.origin, userAgent: ok.userAgent })).toBeUndefined();
    expect(checkRestrictions(full, { origin: ok.origin, userAgent: 'curl' })).toBe('user-agent');
  });

  it('each settings object is compiled separately', () => {
    const a = settings({ allowedMethods: ['a'] });
    const b = settings({ allowedMethods: ['b'] });
    expect(checkRestrictions(a, { origin: undefined, userAgent: undefined, method: 'a' })).toBeUndefined();
    expect(checkRestrictions(b, { origin: undefined, userAgent: undefined, method: 'a' })).toBe('method');
  });
});
