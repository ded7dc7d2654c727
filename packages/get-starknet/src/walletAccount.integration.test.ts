/**
 * Integration: starknet.js WalletAccount → the connector → a simulated MetaMask running the real nodegate snap
 * (snaps-simulation) → nodegate → the embedded dev chain.
 */
import { Account, hash, num, RpcProvider, typedData as td, WalletAccount, WalletAccountV5 } from 'starknet';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SN_MAIN } from './constants.js';
import { createNodegateWallet } from './createNodegateWallet.js';
import { createWalletStandardWallet } from './createWalletStandardWallet.js';
import { SnapSigner } from './SnapSigner.js';
import { createWalletApiValidator } from './testing/createWalletApiValidator.js';
import { startWalletHarness, type WalletHarness } from './testing/startWalletHarness.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const VALID = '0x56414c4944'; // 'VALID', what an Argent account's is_valid_signature returns
const FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'cairo-test-data',
);
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
/** The wallet API's own schema (starknet-specs 0.10.2 `wallet-api/wallet_rpc.json`): results and errors are held to it. */
const spec = createWalletApiValidator(join(FIXTURES, '..', 'starknet-specs-0.10.2'));
const conforms = (method: string, result: unknown) => expect(spec.checkResult(method, result)).toBeUndefined();
const conformingError = (method: string, error: unknown) => expect(spec.checkError(method, error)).toBeUndefined();

let h: WalletHarness;
let account: WalletAccount;

const nonceOf = async (address: string) =>
  BigInt(await h.rpc<string>('starknet_getNonce', { block_id: 'latest', contract_address: address }));
/** Two-field SNIP-12 typed data (domain `name`, `revision`) with one shortstring field `text`. */
const note = (domain: string, text: string) => ({
  types: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    Note: [{ name: 'text', type: 'shortstring' }],
  },
  primaryType: 'Note',
  domain: { name: domain, revision: '1' },
  message: { text },
});

beforeAll(async () => {
  h = await startWalletHarness({ mainnet: true });
  const provider = new RpcProvider({ nodeUrl: h.rpcUrl });
  account = await WalletAccount.connect(provider, h.wallet as never);
  // Fund and deploy the connected account (setup, through the snap directly, as a wallet UI would).
  await h.fundAndDeploy(account.address);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('WalletAccount through the connector and the real snap', () => {
  it('connects: the snap was installed once and the address is the snap account', async () => {
    expect(h.provider.requests.filter((m) => m === 'wallet_requestSnaps')).toHaveLength(1);
    expect(num.toHex(account.address)).toMatch(/^0x[0-9a-f]+$/);
    expect(await account.requestAccounts(true)).toEqual([account.address]);
    expect(await h.wallet.request({ type: 'wallet_requestChainId' })).toBe(h.chainId);
    for (const method of [
      'wallet_requestAccounts',
      'wallet_requestChainId',
      'wallet_getPermissions',
      'wallet_supportedSpecs',
      'wallet_supportedWalletApi',
    ]) {
      conforms(method, await h.wallet.request({ type: method }));
    }
    // The account is deployed (its deploy paid a fee out of the minted STRK).
    const balance = await h.strkBalance(account.address);
    expect(balance > 0n && balance < 10n ** 20n).toBe(true);
  });

  it('signs typed data (stk_signMessage) and the account contract accepts the signature (is_valid_signature)', async () => {
    const message = {
      types: {
        StarknetDomain: [
          { name: 'name', type: 'shortstring' },
          { name: 'version', type: 'shortstring' },
          { name: 'chainId', type: 'shortstring' },
          { name: 'revision', type: 'shortstring' },
        ],
        Mail: [
          { name: 'to', type: 'ContractAddress' },
          { name: 'contents', type: 'shortstring' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'nodegate', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
      message: { to: '0x1234', contents: 'hello' },
    };
    const dialogsBefore = h.user.dialogs;
    const signature = (await account.signMessage(message)) as string[];
    expect(h.user.dialogs).toBe(dialogsBefore + 1);
    expect(signature).toHaveLength(2);
    conforms('wallet_signTypedData', signature);
    const msgHash = td.getMessageHash(message, account.address);
    const r = await h.rpc<string[]>('starknet_call', {
      request: {
        contract_address: account.address,
        entry_point_selector: hash.getSelectorFromName('is_valid_signature'),
        calldata: [msgHash, '0x2', ...signature.map((s) => num.toHex(s))],
      },
      block_id: 'latest',
    });
    expect(num.toHex(r[0] ?? 0)).toBe(VALID);
  });

  it('SnapSigner under starknet.js Account: public key matches the account owner, signatures verify on chain', async () => {
    const signer = new SnapSigner({ snap: h.wallet.snap, address: account.address, chainId: h.chainId });
    const direct = new Account({ provider: new RpcProvider({ nodeUrl: h.rpcUrl }), address: account.address, signer });
    const owner = await h.rpc<string[]>('starknet_call', {
      request: {
        contract_address: account.address,
        entry_point_selector: hash.getSelectorFromName('get_owner'),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(num.toHex(await direct.signer.getPubKey())).toBe(num.toHex(owner[0] ?? 0));
    const message = note('signer', 'through Account');
    const signature = (await direct.signMessage(message)) as string[];
    expect(await direct.provider.verifyMessageInStarknet(message, signature, account.address)).toBe(true);
  });

  it('get-starknet v5 path: WalletAccountV5 over the wallet-standard wallet connects and signs', async () => {
    const standard = createWalletStandardWallet(h.wallet);
    const v5 = await WalletAccountV5.connect(new RpcProvider({ nodeUrl: h.rpcUrl }), standard as never);
    expect(num.toHex(v5.address)).toBe(num.toHex(account.address));
    const message = note('v5', 'wallet standard');
    const signature = (await v5.signMessage(message)) as string[];
    expect(await v5.provider.verifyMessageInStarknet(message, signature, account.address)).toBe(true);
    v5.unsubscribeChange();
  });

  it('wallet_watchAsset: STRK is watched after the dialog; an account contract is NOT_ERC20 (111)', async () => {
    const dialogsBefore = h.user.dialogs;
    const watched = await h.wallet.request({
      type: 'wallet_watchAsset',
      params: { type: 'ERC20', options: { address: STRK, symbol: 'STRK', decimals: 18 } },
    });
    expect(watched).toBe(true);
    conforms('wallet_watchAsset', watched);
    expect(h.user.dialogs).toBe(dialogsBefore + 1);
    const notToken = await h.wallet
      .request({ type: 'wallet_watchAsset', params: { type: 'ERC20', options: { address: account.address } } })
      .catch((e: unknown) => e);
    expect(notToken).toMatchObject({ code: 111, message: 'An error occurred (NOT_ERC20)' });
    conformingError('wallet_watchAsset', notToken);
    expect(String((notToken as { data: unknown }).data)).toContain('is not an ERC20 token');
    expect(h.user.dialogs).toBe(dialogsBefore + 1); // refused before any dialog
  });

  it('a refused dialog surfaces as wallet API error 113', async () => {
    h.user.answers.push(false);
    const message = {
      types: {
        StarknetDomain: [
          { name: 'name', type: 'shortstring' },
          { name: 'revision', type: 'shortstring' },
        ],
        M: [{ name: 'x', type: 'felt' }],
      },
      primaryType: 'M',
      domain: { name: 'nodegate', revision: '1' },
      message: { x: '1' },
    };
    const refused = await account.signMessage(message).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 113 });
    conformingError('wallet_signTypedData', refused);
  });

  it('a multicall through WalletAccount.execute is one transaction (stk_executeTxn) and both transfers land', async () => {
    const [a, b] = ['0xabc1', '0xabc2'];
    const before = await nonceOf(account.address);
    const sent = await account.execute([
      { contractAddress: STRK, entrypoint: 'transfer', calldata: [a, '7', '0'] },
      { contractAddress: STRK, entrypoint: 'transfer', calldata: [b, '9', '0'] },
    ]);
    conforms('wallet_addInvokeTransaction', sent); // the hash padded to 64 hex digits, as the spec's PADDED_TXN_HASH
    expect((await h.waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(await h.strkBalance(a)).toBe(7n);
    expect(await h.strkBalance(b)).toBe(9n);
    expect(await nonceOf(account.address)).toBe(before + 1n);
    const tx = await h.rpc<{ calldata: string[] }>('starknet_getTransactionByHash', {
      transaction_hash: sent.transaction_hash,
    });
    expect(BigInt(tx.calldata[0]!)).toBe(2n); // two calls in the one invoke
  });

  it('three concurrent execute calls land with distinct nonces', async () => {
    const before = await nonceOf(account.address);
    const sent = await Promise.all(
      [1, 2, 3].map((i) =>
        account.execute({ contractAddress: STRK, entrypoint: 'transfer', calldata: [`0xdd${i}`, '1', '0'] }),
      ),
    );
    const nonces: bigint[] = [];
    for (const s of sent) {
      expect((await h.waitAccepted(s.transaction_hash)).execution_status).toBe('SUCCEEDED');
      const tx = await h.rpc<{ nonce: string }>('starknet_getTransactionByHash', {
        transaction_hash: s.transaction_hash,
      });
      nonces.push(BigInt(tx.nonce));
    }
    expect(nonces.sort()).toEqual([before, before + 1n, before + 2n]);
  });

  it('declares a class through WalletAccount.declare (stk_declareContract)', async () => {
    const contract = fixture('upgradable_counter__counter_contract.contract_class.json');
    const casm = fixture('upgradable_counter__counter_contract.compiled_contract_class.json');
    const sent = await account.declare({ contract, compiledClassHash: hash.computeCompiledClassHash(casm) });
    conforms('wallet_addDeclareTransaction', sent);
    expect((await h.waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(num.toHex(sent.class_hash)).toBe(num.toHex(hash.computeContractClassHash(contract)));
    const onChain = await h.rpc<{ sierra_program: string[] }>('starknet_getClass', {
      block_id: 'latest',
      class_hash: sent.class_hash,
    });
    expect(onChain.sierra_program).toEqual(contract.sierra_program);
  });

  it("networks: a refused switch is 113; an approved one fires the WalletAccount handlers; a reloaded page learns the snap's network on connect; SnapSigner({ wallet }) signs for it", async () => {
    const networks: unknown[] = [];
    const accounts: unknown[] = [];
    account.onNetworkChanged((c?: string, a?: string[]) => networks.push([c, a]));
    account.onAccountChange((a?: string[]) => accounts.push(a));

    h.user.answers.push(false);
    const refused = await account.switchStarknetChain(SN_MAIN as never).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 113 });
    conformingError('wallet_switchStarknetChain', refused);
    expect(networks).toEqual([]);
    expect(await h.wallet.request({ type: 'wallet_requestChainId' })).toBe(h.chainId);

    const dialogs = h.user.dialogs;
    expect(await account.switchStarknetChain(SN_MAIN as never)).toBe(true);
    expect(h.user.dialogs).toBe(dialogs + 1);
    // The same key and account class give the same address on mainnet (recovered there: nothing stored yet).
    expect(networks).toEqual([[SN_MAIN, [account.address]]]);
    expect(accounts).toEqual([]); // the account list did not change
    expect(await h.wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_MAIN);
    expect(await account.provider.getChainId()).toBe(SN_MAIN); // WalletAccount's own handler moved its provider
    // Not deployed on mainnet yet: the deployment data a paymaster would use, in the spec's shape.
    const deployment = (await h.wallet.request({ type: 'wallet_deploymentData' })) as Record<string, unknown>;
    conforms('wallet_deploymentData', deployment);
    expect(deployment).toMatchObject({ address: account.address, sigdata: [], version: 1 });
    expect(
      num.toHex(
        hash.calculateContractAddressFromHash(
          deployment.salt as string,
          deployment.class_hash as string,
          deployment.calldata as string[],
          0,
        ),
      ),
    ).toBe(num.toHex(account.address));

    // Fund and deploy the account on mainnet (through the snap on that network), so it is stored there.
    await h.fundAndDeploy(account.address, { chain: SN_MAIN });

    const deployed = await h.wallet.request({ type: 'wallet_deploymentData' }).catch((e: unknown) => e);
    expect(deployed).toMatchObject({ code: 115 });
    conformingError('wallet_deploymentData', deployed);

    // A page reload: a new connector that assumes SN_SEPOLIA, a dApp that restores its account and reconnects silently.
    const reloaded = createNodegateWallet({ provider: h.provider, snapId: h.wallet.snap.snapId });
    expect(reloaded.chainId).toBe(h.chainId);
    const restored = new WalletAccount({
      provider: new RpcProvider({ nodeUrl: h.rpcUrl }),
      walletProvider: reloaded as never,
      address: account.address,
    });
    const seen: unknown[] = [];
    restored.onNetworkChanged((c?: string, a?: string[]) => seen.push(['network', c, a]));
    restored.onAccountChange((a?: string[]) => seen.push(['accounts', a]));
    const restoredAccounts = await restored.requestAccounts(true);
    expect(restoredAccounts).toEqual([account.address]);
    conforms('wallet_requestAccounts', restoredAccounts);
    expect(seen).toEqual([
      ['network', SN_MAIN, [account.address]],
      ['accounts', [account.address]],
    ]);
    expect(reloaded.chainId).toBe(SN_MAIN);
    expect(await restored.provider.getChainId()).toBe(SN_MAIN);

    // SnapSigner following the reloaded wallet signs for mainnet: the mainnet chain checks the signature.
    const signer = new SnapSigner({ wallet: reloaded, address: account.address });
    const onMainnet = new Account({
      provider: new RpcProvider({ nodeUrl: h.mainnetRpcUrl ?? '' }),
      address: account.address,
      signer,
    });
    const sent = await onMainnet.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: ['0xee1', '3', '0'],
    });
    expect((await h.waitAccepted(sent.transaction_hash, SN_MAIN)).execution_status).toBe('SUCCEEDED');
    expect(await h.strkBalance('0xee1', SN_MAIN)).toBe(3n);
    expect(await h.strkBalance('0xee1')).toBe(0n); // nothing happened on the test network

    // back to the test network for whatever runs next
    const switched = await account.switchStarknetChain(h.chainId as never);
    expect(switched).toBe(true);
    conforms('wallet_switchStarknetChain', switched);
    expect(networks.at(-1)).toEqual([h.chainId, [account.address]]);
  });
});
