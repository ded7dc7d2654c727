import { describe, expect, it } from 'vitest';
import { createMethodClassifier } from './createMethodClassifier.js';

const classify = createMethodClassifier([
  { name: 'eth-devnet', family: 'eth' },
  { name: 'starknet-devnet', family: 'starknet' },
]);
const pick = (network: string, transport: 'http' | 'ws' | 'ipfs', method: string) => {
  const c = classify(network, transport, method);
  return [c.class, c.method, c.notification];
};

describe('createMethodClassifier', () => {
  it("takes the class and name from the network family's table", () => {
    expect(pick('eth-devnet', 'http', 'eth_call')).toEqual(['read', 'eth_call', false]);
    expect(pick('eth-devnet', 'http', 'eth_sendRawTransaction')).toEqual(['write', 'eth_sendRawTransaction', false]);
    expect(pick('eth-devnet', 'http', 'eth_newFilter')).toEqual(['filter', 'eth_newFilter', false]);
    expect(pick('eth-devnet', 'ws', 'eth_subscribe')).toEqual(['subscription', 'eth_subscribe', false]);
    expect(pick('starknet-devnet', 'http', 'stk_getClass')).toEqual(['read', 'stk_getClass', false]);
    expect(pick('starknet-devnet', 'http', 'starknet_addInvokeTransaction')).toEqual([
      'write',
      'starknet_addInvokeTransaction',
      false,
    ]);
  });

  it('never uses the text of an unknown method: placeholders only', () => {
    expect(pick('eth-devnet', 'http', 'eth_madeUp')).toEqual(['other', '(other)', false]);
    expect(pick('eth-devnet', 'http', 'stk_getClass')).toEqual(['other', '(other)', false]); // not an eth method
    expect(pick('starknet-devnet', 'http', 'eth_call')).toEqual(['other', '(other)', false]);
    expect(pick('eth-devnet', 'http', 'toString')).toEqual(['other', '(other)', false]);
    expect(pick('eth-devnet', 'http', 'anvil_mine')).toEqual(['write', '(dev)', false]);
    expect(pick('starknet-devnet', 'http', 'devnet_mint')).toEqual(['write', '(dev)', false]);
    expect(pick('eth-devnet', 'http', '(refused)')).toEqual(['other', '(refused)', false]);
    expect(pick('eth-devnet', 'http', '(invalid)')).toEqual(['other', '(invalid)', false]);
    expect(pick('unknown-network', 'http', 'eth_call')).toEqual(['other', '(other)', false]);
  });

  it('classes notifications as subscription, and every IPFS event as ipfs', () => {
    expect(pick('eth-devnet', 'ws', 'eth_subscription')).toEqual(['subscription', 'eth_subscription', true]);
    expect(pick('starknet-devnet', 'ws', 'starknet_subscriptionNewHeads')).toEqual([
      'subscription',
      'starknet_subscriptionNewHeads',
      true,
    ]);
    expect(pick('ipfs', 'ipfs', 'add')).toEqual(['ipfs', 'add', false]);
    expect(pick('ipfs', 'ipfs', 'pin/add')).toEqual(['ipfs', 'pin/add', false]);
    expect(pick('ipfs', 'ipfs', 'no/such/command')).toEqual(['ipfs', '(other)', false]);
    expect(pick('ipfs', 'ipfs', '(refused)')).toEqual(['ipfs', '(refused)', false]);
  });
});
