/**
 * Every wallet method: its happy path, its refusal path (the user declining a dialog -> 4001, or for methods
 * without a dialog the chain refusing -> the chain's own code with an actionable message), and a bad input
 * (-32602 naming the parameter).
 */
import { BIP44CoinTypeNode } from '@metamask/key-tree';
import { hash, typedData } from 'starknet';
import { accountAddress, starkKeyPairFromNode } from '../../src/lib/keys';
import {
  answer,
  backend,
  CHAIN_ID,
  deployedAccount,
  dialogFields,
  dialogText,
  errorOf,
  field,
  hex,
  install,
  mint,
  NETWORK,
  nonceOf,
  PHRASES,
  result,
  rpc,
  STRK,
  type Snap,
  send,
  strkBalance,
  waitAccepted,
} from './helpers';

type AddTx = { code: string; transaction_hash: string; address?: string };
type Fee = { overall_fee: string; gas_price: string; gas_usage: string; unit: string; suggestedMaxFee: string };

const TYPED = JSON.stringify({
  types: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'version', type: 'shortstring' },
      { name: 'chainId', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    Greeting: [{ name: 'text', type: 'shortstring' }],
  },
  primaryType: 'Greeting',
  domain: { name: 'methods', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: { text: 'gm' },
});

const UNKNOWN_CONTRACT = '0x7777777777';

let snap: Snap;
let deployed = ''; // index 0, funded and deployed
let undeployed = ''; // index 1, never deployed
let keys0: { privateKey: string; publicKey: string };

const expectInvalid = async (pending: ReturnType<typeof send>, param: string) => {
  const err = await errorOf(pending);
  expect(err.code).toBe(-32602);
  expect(err.message).toContain(param);
};

const expectRejected = async (pending: ReturnType<typeof send>) => {
  await answer(pending, false);
  const err = await errorOf(pending);
  expect(err.code).toBe(4001);
};

beforeAll(async () => {
  const node = await BIP44CoinTypeNode.fromDerivationPath([`bip39:${PHRASES.methods}`, "bip32:44'", "bip32:9004'"]);
  keys0 = await starkKeyPairFromNode(node.toJSON(), 0);
  snap = await install(PHRASES.methods);
  deployed = await deployedAccount(snap, 10n ** 19n);
  undeployed = (await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 1 }))).address;
});

describe('network selection', () => {
  it('defaults to the test network and rejects an unknown chainId naming it', async () => {
    const { response } = await snap.request({ method: 'stk_getStoredUserAccounts', params: {} });
    expect('result' in response && Array.isArray(response.result)).toBe(true);
    await expectInvalid(send(snap, 'stk_getStoredUserAccounts', { chainId: '0x1234' }), 'chainId');
  });
  it('answers an unknown method with method-not-found', async () => {
    const err = await errorOf(send(snap, 'stk_nope'));
    expect(err.code).toBe(-32601);
  });
});

describe('stk_createAccount', () => {
  it('returns the address for an index without deploying (happy)', async () => {
    const r = await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 }));
    expect(r).toEqual({ address: accountAddress(keys0.publicKey, backend.accountClassHash) });
  });
  it('declining the deploy dialog gives 4001 and sends nothing', async () => {
    const index2 = (await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 2 }))).address;
    await mint(index2, 10n ** 18n);
    await expectRejected(send(snap, 'stk_createAccount', { addressIndex: 2, deploy: true }));
    await expect(rpc('starknet_getClassHashAt', { block_id: 'latest', contract_address: index2 })).rejects.toThrow(
      / 20 /,
    );
  });
  it('a deploy the account cannot pay for is refused before the dialog with code 54 and what to do', async () => {
    const err = await errorOf(send(snap, 'stk_createAccount', { addressIndex: 3, deploy: true }));
    expect(err.code).toBe(54);
    expect(err.message).toMatch(/holds 0 STRK, less than the deploy's maximal fee .*; fund it with STRK first/);
  });
  it('a second deploy of a deployed account is refused clearly', async () => {
    const err = await errorOf(send(snap, 'stk_createAccount', { addressIndex: 0, deploy: true }));
    expect(err.message).toMatch(/already deployed/);
  });
  it('bad addressIndex -> -32602', async () => {
    await expectInvalid(send(snap, 'stk_createAccount', { addressIndex: -1 }), 'addressIndex');
    await expectInvalid(send(snap, 'stk_createAccount', { deploy: 'yes' }), 'deploy');
  });
});

describe('stk_displayPrivateKey', () => {
  it('shows the key only in a dialog after confirmation and returns null (happy)', async () => {
    const p = send(snap, 'stk_displayPrivateKey', { userAddress: deployed });
    const confirm = await answer(p, true);
    expect(dialogText(confirm)).not.toContain(keys0.privateKey);
    const alert = await answer(p, true);
    expect(dialogText(alert)).toContain(keys0.privateKey);
    expect(await result(p)).toBeNull();
  });
  it('declining gives 4001', async () => {
    await expectRejected(send(snap, 'stk_displayPrivateKey', { userAddress: deployed }));
  });
  it('bad or foreign address', async () => {
    await expectInvalid(send(snap, 'stk_displayPrivateKey', { userAddress: 'nope' }), 'userAddress');
    const err = await errorOf(send(snap, 'stk_displayPrivateKey', { userAddress: UNKNOWN_CONTRACT }));
    expect(err.message).toMatch(/is not an account of this wallet/);
  });
});

describe('stk_estimateAccountDeployFee', () => {
  it('returns the estimate_fee shape (happy)', async () => {
    const fee = await result<Fee>(send(snap, 'stk_estimateAccountDeployFee', { addressIndex: 1 }));
    expect(fee.unit).toBe('FRI');
    for (const k of ['overall_fee', 'gas_price', 'gas_usage', 'suggestedMaxFee'] as const)
      expect(fee[k]).toMatch(/^[0-9]+$/);
    expect(BigInt(fee.overall_fee)).toBeGreaterThan(0n);
  });
  it('an index whose account is already deployed: the chain refuses, its code and message are kept', async () => {
    const err = await errorOf(send(snap, 'stk_estimateAccountDeployFee', { addressIndex: 0 }));
    expect(err.code).toBeGreaterThan(0);
    expect(err.code).toBeLessThan(100);
    expect(err.message).toMatch(/^Could not estimate the deploy fee of 0x/);
  });
  it('bad addressIndex -> -32602', async () => {
    await expectInvalid(send(snap, 'stk_estimateAccountDeployFee', { addressIndex: 'a' }), 'addressIndex');
  });
});

describe('stk_estimateFee', () => {
  const transfer = (sender: string) => ({
    contractAddress: STRK,
    contractFuncName: 'transfer',
    contractCallData: '0x99,1,0',
    senderAddress: sender,
  });
  it('estimates an invoke from a deployed account (happy)', async () => {
    const fee = await result<Fee & { includesDeploy: boolean }>(send(snap, 'stk_estimateFee', transfer(deployed)));
    expect(fee.includesDeploy).toBe(false);
    expect(BigInt(fee.overall_fee)).toBeGreaterThan(0n);
  });
  it('includes the deploy when the sender is not deployed yet', async () => {
    await mint(undeployed, 10n ** 18n); // funded, still not deployed
    const withDeploy = await result<Fee & { includesDeploy: boolean }>(
      send(snap, 'stk_estimateFee', transfer(undeployed)),
    );
    const deployOnly = await result<Fee>(send(snap, 'stk_estimateAccountDeployFee', { addressIndex: 1 }));
    expect(withDeploy.includesDeploy).toBe(true);
    expect(BigInt(withDeploy.overall_fee)).toBeGreaterThan(BigInt(deployOnly.overall_fee));
  });
  it('a call the chain refuses keeps the chain code with an actionable message', async () => {
    const err = await errorOf(
      send(snap, 'stk_estimateFee', { ...transfer(deployed), contractFuncName: 'no_such_function' }),
    );
    expect(err.code).toBeGreaterThan(0);
    expect(err.code).toBeLessThan(100);
    expect(err.message).toMatch(/Could not estimate the fee of no_such_function/);
  });
  it('missing contractFuncName -> -32602', async () => {
    const { contractFuncName: _omitted, ...withoutName } = transfer(deployed);
    await expectInvalid(send(snap, 'stk_estimateFee', withoutName), 'contractFuncName');
  });
});

describe('stk_extractPublicKey', () => {
  it('reads the owner from the chain for a deployed account, derives it otherwise (happy)', async () => {
    expect(await result(send(snap, 'stk_extractPublicKey', { userAddress: deployed }))).toBe(keys0.publicKey);
    const k1 = await result<string>(send(snap, 'stk_extractPublicKey', { userAddress: undeployed }));
    expect(accountAddress(k1, backend.accountClassHash)).toBe(undeployed);
  });
  it('a foreign address is refused, a bad one is -32602', async () => {
    expect((await errorOf(send(snap, 'stk_extractPublicKey', { userAddress: UNKNOWN_CONTRACT }))).message).toMatch(
      /not an account of this wallet/,
    );
    await expectInvalid(send(snap, 'stk_extractPublicKey', {}), 'userAddress');
  });
});

describe('stk_getErc20TokenBalance', () => {
  it('returns pending and latest balances as hex u256 (happy)', async () => {
    const r = await result<{ balancePending: string; balanceLatest: string }>(
      send(snap, 'stk_getErc20TokenBalance', { tokenAddress: STRK, userAddress: deployed }),
    );
    expect(r.balanceLatest).toMatch(/^0x[0-9a-f]+$/);
    expect(BigInt(r.balanceLatest)).toBe(await strkBalance(deployed));
    expect(BigInt(r.balancePending)).toBe(BigInt(r.balanceLatest));
  });
  it('a token that is not deployed gives the chain code 20 with a hint', async () => {
    const err = await errorOf(
      send(snap, 'stk_getErc20TokenBalance', { tokenAddress: UNKNOWN_CONTRACT, userAddress: deployed }),
    );
    expect(err.code).toBe(20);
    expect(err.message).toMatch(/no contract is deployed at that address/);
  });
  it('bad tokenAddress -> -32602', async () => {
    await expectInvalid(
      send(snap, 'stk_getErc20TokenBalance', { tokenAddress: 12, userAddress: deployed }),
      'tokenAddress',
    );
  });
});

describe('stk_getStoredUserAccounts', () => {
  it('lists the deployed account as initialized (happy)', async () => {
    const list = await result<{ address: string; status: string; addressIndex: number }[]>(
      send(snap, 'stk_getStoredUserAccounts'),
    );
    expect(list).toEqual([expect.objectContaining({ address: deployed, addressIndex: 0, status: 'initialized' })]);
    expect(JSON.stringify(list)).not.toContain(keys0.privateKey.slice(2));
  });
  it('bad params -> -32602', async () => {
    await expectInvalid(snap.request({ method: 'stk_getStoredUserAccounts', params: [1] as never }), 'params');
  });
});

describe('stk_getValue', () => {
  it('calls a view function and returns {result} (happy)', async () => {
    const r = await result<{ result: string[] }>(
      send(snap, 'stk_getValue', { contractAddress: deployed, contractFuncName: 'get_owner' }),
    );
    expect(r).toEqual({ result: [keys0.publicKey] });
  });
  it('a missing entry point gives the chain code 21 with a hint', async () => {
    const err = await errorOf(send(snap, 'stk_getValue', { contractAddress: STRK, contractFuncName: 'nope' }));
    expect(err.code).toBe(21);
    expect(err.message).toMatch(/check contractFuncName/);
  });
  it('bad contractCallData -> -32602', async () => {
    await expectInvalid(
      send(snap, 'stk_getValue', { contractAddress: STRK, contractFuncName: 'balance_of', contractCallData: 'x' }),
      'contractCallData',
    );
  });
});

describe('stk_sendTransaction / stk_getTransactionStatus / stk_getTransactions', () => {
  let sentHash = '';
  it('sends after confirmation, honouring maxFee as a cap (happy)', async () => {
    const fee = await result<Fee>(
      send(snap, 'stk_estimateFee', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: '0x99,5,0',
        senderAddress: deployed,
      }),
    );
    const maxFee = ((BigInt(fee.overall_fee) * 12n) / 10n).toString();
    const p = send(snap, 'stk_sendTransaction', {
      contractAddress: STRK,
      contractFuncName: 'transfer',
      contractCallData: '0x99,5,0',
      senderAddress: deployed,
      maxFee,
    });
    await answer(p, true);
    const r = await result<AddTx>(p);
    expect(r.code).toBe('TRANSACTION_RECEIVED');
    sentHash = r.transaction_hash;
    await waitAccepted(sentHash);
    const tx = await rpc<{ resource_bounds: Record<string, { max_amount: string; max_price_per_unit: string }> }>(
      'starknet_getTransactionByHash',
      { transaction_hash: sentHash },
    );
    const total = Object.values(tx.resource_bounds).reduce(
      (s, b) => s + BigInt(b.max_amount) * BigInt(b.max_price_per_unit),
      0n,
    );
    expect(total).toBeLessThanOrEqual(BigInt(maxFee));
  });
  it('declining gives 4001 and leaves the nonce alone', async () => {
    const before = await nonceOf(deployed);
    await expectRejected(
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: '0x99,5,0',
        senderAddress: deployed,
      }),
    );
    expect(await nonceOf(deployed)).toBe(before);
  });
  it("a maxFee below the estimate is refused before any dialog, with the chain's estimate", async () => {
    const err = await errorOf(
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: '0x99,5,0',
        senderAddress: deployed,
        maxFee: '1',
      }),
    );
    expect(err.message).toMatch(/maxFee 1 is below the estimated fee [0-9]+/);
  });
  it('an undeployed sender is refused with what to do', async () => {
    const err = await errorOf(
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: '0x99,5,0',
        senderAddress: undeployed,
      }),
    );
    expect(err.message).toMatch(/not deployed .* deploy it with stk_createAccount/);
  });
  it('bad inputs -> -32602', async () => {
    await expectInvalid(
      send(snap, 'stk_sendTransaction', { contractAddress: STRK, contractFuncName: 'transfer' }),
      'senderAddress',
    );
    await expectInvalid(
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        senderAddress: deployed,
        maxFee: '-3',
      }),
      'maxFee',
    );
  });
  it('stk_getTransactionStatus: status and outcome (happy), unknown hash (29), bad hash (-32602)', async () => {
    expect(await result(send(snap, 'stk_getTransactionStatus', { transactionHash: sentHash }))).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'SUCCEEDED',
    });
    const err = await errorOf(send(snap, 'stk_getTransactionStatus', { transactionHash: '0x123456789' }));
    expect(err.code).toBe(29);
    await expectInvalid(send(snap, 'stk_getTransactionStatus', { transactionHash: 'zz' }), 'transactionHash');
  });
  it('stk_getTransactions: records newest first, filters, and bad pageSize', async () => {
    const all = await result<{ txnHash: string; txnType: string }[]>(
      send(snap, 'stk_getTransactions', { senderAddress: deployed, pageSize: 25, withDeployTxn: true }),
    );
    expect(hex(all[0]!.txnHash)).toBe(hex(sentHash));
    expect(all.at(-1)!.txnType).toBe('DEPLOY_ACCOUNT');
    const noDeploy = await result<{ txnType: string }[]>(
      send(snap, 'stk_getTransactions', { senderAddress: deployed }),
    );
    expect(noDeploy.every((t) => t.txnType === 'INVOKE')).toBe(true);
    const other = await result<unknown[]>(
      send(snap, 'stk_getTransactions', { senderAddress: deployed, contractAddress: UNKNOWN_CONTRACT }),
    );
    expect(other).toEqual([]);
    await expectInvalid(send(snap, 'stk_getTransactions', { senderAddress: deployed, pageSize: 7 }), 'pageSize');
    await expectInvalid(send(snap, 'stk_getTransactions', { senderAddress: deployed, chainId: '0x1' }), 'chainId');
  });
});

describe('stk_recoverAccounts', () => {
  it('scans with the given limits and flags (happy)', async () => {
    const r = await result<{ addressIndex: number; deployed: boolean; upgradeRequired: boolean }[]>(
      send(snap, 'stk_recoverAccounts', { startScanIndex: 0, maxScanned: 3, maxMissed: 3 }),
    );
    expect(r.map((a) => [a.addressIndex, a.deployed, a.upgradeRequired])).toEqual([
      [0, true, true],
      [1, false, false],
      [2, false, false],
    ]);
    const one = await result<unknown[]>(send(snap, 'stk_recoverAccounts', { startScanIndex: 1 }));
    expect(one).toHaveLength(1);
  });
  it('a network whose nodegate endpoint is not reachable is refused naming the network and what to check', async () => {
    const err = await errorOf(send(snap, 'stk_recoverAccounts', { chainId: '0x534e5f4d41494e' }));
    expect(err.code).toBe(-32006);
    expect(err.message).toMatch(/Starknet Mainnet/);
    expect(err.message).toMatch(/check that nodegate is running and the API key is valid/);
    expect(err.message).not.toContain('127.0.0.1:9'); // the URL (which may hold the API key) is not echoed
  });
  it('bad maxScanned -> -32602', async () => {
    await expectInvalid(send(snap, 'stk_recoverAccounts', { maxScanned: 0 }), 'maxScanned');
  });
});

describe('stk_signMessage / stk_verifyMessage', () => {
  it('signs after showing the message, and the signature verifies (happy)', async () => {
    const p = send(snap, 'stk_signMessage', { typedDataMessage: TYPED, signerAddress: deployed });
    const ui = await answer(p, true);
    expect(dialogText(ui)).toContain('gm');
    const fields = dialogFields(ui);
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'Signer')).toBe(hex(deployed));
    expect(JSON.parse(field(fields, 'Domain'))).toEqual(JSON.parse(TYPED).domain);
    expect(hex(field(fields, 'Message hash'))).toBe(hex(typedData.getMessageHash(JSON.parse(TYPED), deployed)));
    const sig = await result<string[]>(p);
    expect(
      await result(
        send(snap, 'stk_verifyMessage', { typedDataMessage: TYPED, signerAddress: deployed, signature: sig.join(',') }),
      ),
    ).toBe(true);
    // a signature by another of this wallet's accounts is false, not an error
    expect(
      await result(
        send(snap, 'stk_verifyMessage', {
          typedDataMessage: TYPED,
          signerAddress: undeployed,
          signature: sig.join(','),
        }),
      ),
    ).toBe(false);
  });
  it('declining to sign gives 4001', async () => {
    await expectRejected(send(snap, 'stk_signMessage', { typedDataMessage: TYPED, signerAddress: deployed }));
  });
  it('bad typed data and bad signatures -> -32602', async () => {
    await expectInvalid(
      send(snap, 'stk_signMessage', { typedDataMessage: '{not json', signerAddress: deployed }),
      'typedDataMessage',
    );
    await expectInvalid(
      send(snap, 'stk_signMessage', { typedDataMessage: '{"a":1}', signerAddress: deployed }),
      'typedDataMessage',
    );
    await expectInvalid(
      send(snap, 'stk_verifyMessage', { typedDataMessage: TYPED, signerAddress: deployed, signature: 'abc' }),
      'signature',
    );
  });
});

describe('stk_upgradeAccContract', () => {
  it('declining gives 4001 and the class stays', async () => {
    await expectRejected(send(snap, 'stk_upgradeAccContract', { contractAddress: deployed }));
    expect(hex(await rpc<string>('starknet_getClassHashAt', { block_id: 'latest', contract_address: deployed }))).toBe(
      hex(backend.accountClassHash),
    );
  });
  it('an undeployed account is refused, a bad address is -32602', async () => {
    expect((await errorOf(send(snap, 'stk_upgradeAccContract', { contractAddress: undeployed }))).message).toMatch(
      /not deployed/,
    );
    await expectInvalid(send(snap, 'stk_upgradeAccContract', { contractAddress: '0x' }), 'contractAddress');
  });
  it('upgrades after confirmation (happy)', async () => {
    const p = send(snap, 'stk_upgradeAccContract', { contractAddress: deployed });
    await answer(p, true);
    await waitAccepted((await result<AddTx>(p)).transaction_hash);
    expect(hex(await rpc<string>('starknet_getClassHashAt', { block_id: 'latest', contract_address: deployed }))).toBe(
      hex(backend.latestAccountClassHash),
    );
  });
});

describe('selector sanity', () => {
  it('the chain id the tests use is the one the snap was built for', () => {
    expect(CHAIN_ID).toBe('0x534e5f5345504f4c4941');
    expect(hash.getSelectorFromName('transfer')).toMatch(/^0x/);
  });
});
