/**
 * The full story on one account: create, fund, deploy, send, history, upgrade, sign + verify, then recover on a
 * fresh install with the same recovery phrase.
 */
import { hash, typedData } from 'starknet';
import {
  answer,
  backend,
  classHashAt,
  dialogText,
  errorOf,
  hex,
  install,
  mint,
  PHRASES,
  result,
  rpc,
  STRK,
  send,
  strkBalance,
  waitAccepted,
} from './helpers';

const TYPED = {
  types: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'version', type: 'shortstring' },
      { name: 'chainId', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    Mail: [
      { name: 'to', type: 'felt' },
      { name: 'contents', type: 'shortstring' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'nodegate', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: { to: '0x1234', contents: 'hello from the story' },
};

type AddTx = { code: string; transaction_hash: string; address?: string };
type Account = { address: string; addressIndex: number; status: string; publicKey: string };
type Record_ = { txnHash: string; txnType: string; status: string; contractFuncName: string; executionStatus?: string };

describe('full story', () => {
  let address = '';
  let recipient = '';
  let sendHash = '';
  let deployHash = '';

  it('creates, funds and deploys an account', async () => {
    const snap = await install(PHRASES.story);
    const fee = await result<Record<string, string>>(send(snap, 'stk_estimateAccountDeployFee', { addressIndex: 0 }));
    expect(BigInt(fee.overall_fee!)).toBeGreaterThan(0n);
    expect(BigInt(fee.suggestedMaxFee!)).toBeGreaterThan(BigInt(fee.overall_fee!));

    ({ address } = await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 })));
    await mint(address, 10n ** 19n);

    const pending = send(snap, 'stk_createAccount', { addressIndex: 0, deploy: true });
    const ui = await answer(pending, true);
    expect(dialogText(ui)).toContain(address);
    const deployed = await result<AddTx>(pending);
    expect(deployed).toEqual({ code: 'TRANSACTION_RECEIVED', transaction_hash: expect.any(String), address });
    deployHash = deployed.transaction_hash;
    await waitAccepted(deployHash);
    expect(hex(await classHashAt(address))).toBe(hex(backend.accountClassHash));

    const stored = await result<Account[]>(send(snap, 'stk_getStoredUserAccounts'));
    expect(stored).toEqual([expect.objectContaining({ address, addressIndex: 0, status: 'initialized' })]);

    // send: an ERC20 transfer to a predeployed account, with the decoded recipient and amount in the dialog
    const accounts = await rpc<{ address: string }[]>('devnet_getPredeployedAccounts');
    recipient = hex(accounts[0]!.address);
    const before = await strkBalance(recipient);
    const sending = send(snap, 'stk_sendTransaction', {
      contractAddress: STRK,
      contractFuncName: 'transfer',
      contractCallData: `${recipient},12345,0`,
      senderAddress: address,
    });
    const sendUi = await answer(sending, true);
    expect(dialogText(sendUi)).toContain(recipient);
    expect(dialogText(sendUi)).toContain('12345');
    expect(dialogText(sendUi)).toContain('https://dapp.example'); // the requesting origin
    const sent = await result<AddTx>(sending);
    expect(sent.code).toBe('TRANSACTION_RECEIVED');
    sendHash = sent.transaction_hash;
    await waitAccepted(sendHash);
    expect((await strkBalance(recipient)) - before).toBe(12345n);

    const status = await result<{ status: string; executionStatus: string }>(
      send(snap, 'stk_getTransactionStatus', { transactionHash: sendHash }),
    );
    expect(status).toMatchObject({ status: 'ACCEPTED_ON_L2', executionStatus: 'SUCCEEDED' });

    const bal = await result<{ balancePending: string; balanceLatest: string }>(
      send(snap, 'stk_getErc20TokenBalance', { tokenAddress: STRK, userAddress: address }),
    );
    expect(BigInt(bal.balanceLatest)).toBe(await strkBalance(address));

    // history: newest first, the send before the deploy
    const history = await result<Record_[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, withDeployTxn: true }),
    );
    expect(history.map((t) => hex(t.txnHash))).toEqual([hex(sendHash), hex(deployHash)]);
    expect(history[0]).toMatchObject({
      contractFuncName: 'transfer',
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'SUCCEEDED',
    });

    // upgrade to the newest account class
    const scan = await result<{ upgradeRequired: boolean; deployed: boolean }[]>(send(snap, 'stk_recoverAccounts'));
    expect(scan[0]).toMatchObject({ deployed: true, upgradeRequired: true });
    const upgrading = send(snap, 'stk_upgradeAccContract', { contractAddress: address });
    const upUi = await answer(upgrading, true);
    expect(dialogText(upUi)).toContain(hex(backend.latestAccountClassHash));
    const up = await result<AddTx>(upgrading);
    await waitAccepted(up.transaction_hash);
    expect(hex(await classHashAt(address))).toBe(hex(backend.latestAccountClassHash));
    const again = await errorOf(send(snap, 'stk_upgradeAccContract', { contractAddress: address }));
    expect(again.message).toMatch(/already runs the newest account class/);

    // sign + verify
    const signing = send(snap, 'stk_signMessage', { typedDataMessage: JSON.stringify(TYPED), signerAddress: address });
    const signUi = await answer(signing, true);
    expect(dialogText(signUi)).toContain('hello from the story');
    const signature = await result<string[]>(signing);
    expect(signature).toHaveLength(2);
    const verify = (sig: string, td = TYPED) =>
      result<boolean>(
        send(snap, 'stk_verifyMessage', {
          typedDataMessage: JSON.stringify(td),
          signerAddress: address,
          signature: sig,
        }),
      );
    expect(await verify(signature.join(','))).toBe(true);
    expect(await verify(JSON.stringify(signature))).toBe(true);
    expect(await verify(`${signature[0]},${hex(BigInt(signature[1]!) + 1n)}`)).toBe(false);
    expect(await verify(signature.join(','), { ...TYPED, message: { ...TYPED.message, contents: 'tampered' } })).toBe(
      false,
    );
    // the deployed (upgraded) account itself accepts the signature on chain
    const onChain = await rpc<string[]>('starknet_call', {
      request: {
        contract_address: address,
        entry_point_selector: hash.getSelectorFromName('is_valid_signature'),
        calldata: [typedData.getMessageHash(TYPED, address), '0x2', ...signature],
      },
      block_id: 'latest',
    });
    expect(onChain[0]).toBe('0x56414c4944'); // 'VALID'
  });

  it('recovers the account and its history on a fresh install with the same phrase', async () => {
    const snap = await install(PHRASES.story);
    expect(await result(send(snap, 'stk_getStoredUserAccounts'))).toEqual([]);
    const scan = await result<{ address: string; addressIndex: number; deployed: boolean; upgradeRequired: boolean }[]>(
      send(snap, 'stk_recoverAccounts', { startScanIndex: 0, maxScanned: 10, maxMissed: 2 }),
    );
    expect(scan.map((a) => [a.addressIndex, a.deployed])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
    expect(scan[0]).toMatchObject({ address, upgradeRequired: false });
    const stored = await result<Account[]>(send(snap, 'stk_getStoredUserAccounts'));
    expect(stored).toEqual([expect.objectContaining({ address, status: 'initialized' })]);
    // history comes from nodegate itself, not from this (fresh) state
    expect(await result(send(snap, 'stk_getTransactions', { senderAddress: address, onlyFromState: true }))).toEqual(
      [],
    );
    const history = await result<Record_[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, withDeployTxn: true }),
    );
    expect(history.map((t) => hex(t.txnHash))).toEqual(expect.arrayContaining([hex(sendHash), hex(deployHash)]));
    expect(history.map((t) => t.contractFuncName)).toEqual(['upgrade', 'transfer', 'deploy_account']);
    const withoutDeploy = await result<Record_[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, contractAddress: STRK }),
    );
    expect(withoutDeploy.map((t) => hex(t.txnHash))).toEqual([hex(sendHash)]);
  });
});
