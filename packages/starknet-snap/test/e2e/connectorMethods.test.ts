/**
 * The methods the wallet connector (packages/get-starknet) needs: multicall transactions, declares, deployment
 * data, network switching, watched tokens, and sign-only methods checked by the chain itself (starknet.js Account
 * with a signer that asks the snap, so the node's own signature check decides).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Account,
  type Call,
  type DeclareSignerDetails,
  type DeployAccountSignerDetails,
  hash,
  type InvocationsSignerDetails,
  RpcProvider,
  type Signature,
  SignerInterface,
  type TypedData,
} from 'starknet';
import {
  answer,
  backend,
  CHAIN_ID,
  dialogText,
  errorOf,
  hex,
  install,
  mint,
  PHRASES,
  result,
  rpc,
  STRK,
  type Snap,
  send,
  strkBalance,
  waitAccepted,
} from './helpers';

type AddTx = { code: string; transaction_hash: string };
const FIXTURES = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'fixtures', 'cairo-test-data');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

let snap: Snap;
let deployed = '';
let undeployed = '';
const provider = new RpcProvider({ nodeUrl: backend.devRpcUrl });

/** JSON-safe copy (bigints as hex), as the connector sends them. */
const jsonSafe = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x)));

/** A starknet.js signer that asks the snap and approves its dialog (query versions have none). */
class ApprovingSnapSigner extends SignerInterface {
  dialogs: string[] = [];
  constructor(private readonly address: string) {
    super();
  }
  async getPubKey(): Promise<string> {
    return result<string>(send(snap, 'stk_extractPublicKey', { userAddress: this.address }));
  }
  async signMessage(_t: TypedData, _a: string): Promise<Signature> {
    throw new Error('not used here');
  }
  private async ask(method: string, params: Record<string, unknown>, query: boolean): Promise<Signature> {
    const pending = send(snap, method, { signerAddress: this.address, ...params });
    if (!query) this.dialogs.push(dialogText(await answer(pending, true)));
    return result<string[]>(pending);
  }
  signTransaction(transactions: Call[], details: InvocationsSignerDetails): Promise<Signature> {
    const query = BigInt(details.version) !== 3n;
    return this.ask('stk_signTransaction', { transactions: jsonSafe(transactions), details: jsonSafe(details) }, query);
  }
  signDeployAccountTransaction(details: DeployAccountSignerDetails): Promise<Signature> {
    return this.ask('stk_signDeployAccountTransaction', { details: jsonSafe(details) }, BigInt(details.version) !== 3n);
  }
  signDeclareTransaction(details: DeclareSignerDetails): Promise<Signature> {
    return this.ask('stk_signDeclareTransaction', { details: jsonSafe(details) }, BigInt(details.version) !== 3n);
  }
}

const nonceOf = async (address: string) =>
  BigInt(await rpc<string>('starknet_getNonce', { block_id: 'latest', contract_address: address }));

beforeAll(async () => {
  snap = await install(PHRASES.connector);
  deployed = (await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 }))).address;
  undeployed = (await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 1 }))).address;
  await mint(deployed, 10n ** 20n);
  const p = send(snap, 'stk_createAccount', { addressIndex: 0, deploy: true });
  await answer(p, true);
  await waitAccepted((await result<AddTx>(p)).transaction_hash);
});

describe('stk_executeTxn', () => {
  it('sends two transfers as one transaction; the dialog shows both calls decoded', async () => {
    const [a, b] = ['0x5a1', '0x5a2'];
    const nonce = await nonceOf(deployed);
    const pending = send(snap, 'stk_executeTxn', {
      senderAddress: deployed,
      calls: [
        { contractAddress: STRK, entrypoint: 'transfer', calldata: [a, '0x64', '0x0'] },
        { contractAddress: STRK, entrypoint: 'transfer', calldata: [b, '200', '0'] },
      ],
    });
    const text = dialogText(await answer(pending, true));
    expect(text).toContain('Send 2 calls in one transaction');
    expect(text).toContain(`transfer on ${hex(STRK)}`);
    expect(text).toContain('Max fee');
    const sent = await result<AddTx>(pending);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(await strkBalance(a)).toBe(100n);
    expect(await strkBalance(b)).toBe(200n);
    expect(await nonceOf(deployed)).toBe(nonce + 1n);
  });

  it('three concurrent multicalls get distinct nonces and all land', async () => {
    const before = await nonceOf(deployed);
    const pendings = [1, 2, 3].map((i) =>
      send(snap, 'stk_executeTxn', {
        senderAddress: deployed,
        calls: [{ contractAddress: STRK, entrypoint: 'transfer', calldata: [`0x6b${i}`, String(i), '0'] }],
      }),
    );
    for (let i = 0; i < 3; i++) await answer(pendings[0]!, true);
    const hashes = (await Promise.all(pendings.map((p) => result<AddTx>(p)))).map((s) => s.transaction_hash);
    const nonces: bigint[] = [];
    for (const h of hashes) {
      expect((await waitAccepted(h)).execution_status).toBe('SUCCEEDED');
      nonces.push(
        BigInt((await rpc<{ nonce: string }>('starknet_getTransactionByHash', { transaction_hash: h })).nonce),
      );
    }
    expect(nonces.sort()).toEqual([before, before + 1n, before + 2n]);
  });

  it('a refusal is 4001 and nothing is sent; bad calls are -32602 naming the call', async () => {
    const nonce = await nonceOf(deployed);
    const pending = send(snap, 'stk_executeTxn', {
      senderAddress: deployed,
      calls: [{ contractAddress: STRK, entrypoint: 'transfer', calldata: ['0x1', '1', '0'] }],
    });
    await answer(pending, false);
    expect((await errorOf(pending)).code).toBe(4001);
    expect(await nonceOf(deployed)).toBe(nonce);
    for (const [calls, param] of [
      [[], 'calls'],
      [[{ contractAddress: 'nope', entrypoint: 'transfer' }], 'calls[0].contractAddress'],
      [[{ contractAddress: STRK, entrypoint: 'transfer', calldata: ['x'] }], 'calls[0].calldata'],
      [[{ contractAddress: STRK, entrypoint: 'not a name' }], 'calls[0].entrypoint'],
    ] as const) {
      const err = await errorOf(send(snap, 'stk_executeTxn', { senderAddress: deployed, calls }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain(param);
    }
  });
});

describe('sign-only methods, checked by the chain', () => {
  it('stk_signTransaction: starknet.js Account with the snap as signer sends a transfer the chain accepts', async () => {
    const signer = new ApprovingSnapSigner(deployed);
    const account = new Account({ provider, address: deployed, signer, cairoVersion: '1' });
    const sent = await account.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: ['0x7c1', '5', '0'],
    });
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(await strkBalance('0x7c1')).toBe(5n);
    expect(signer.dialogs).toHaveLength(1);
    expect(signer.dialogs[0]).toContain('Sign transaction');
    expect(signer.dialogs[0]).toContain(`transfer on ${hex(STRK)}`);
  });

  it('stk_signTransaction refuses details for another chain or another account, and a refusal is 4001', async () => {
    const details = {
      chainId: '0x534e5f4d41494e',
      walletAddress: deployed,
      nonce: '0x1',
      version: '0x3',
      resourceBounds: {
        l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
        l2_gas: { max_amount: '0x1', max_price_per_unit: '0x1' },
        l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
      },
    };
    const transactions = [{ contractAddress: STRK, entrypoint: 'transfer', calldata: ['0x1', '1', '0'] }];
    let err = await errorOf(send(snap, 'stk_signTransaction', { signerAddress: deployed, transactions, details }));
    expect(err).toMatchObject({ code: -32602 });
    expect(err.message).toContain('details.chainId');
    err = await errorOf(
      send(snap, 'stk_signTransaction', {
        signerAddress: deployed,
        transactions,
        details: { ...details, chainId: CHAIN_ID, walletAddress: undeployed },
      }),
    );
    expect(err.message).toContain('details.walletAddress');
    const pending = send(snap, 'stk_signTransaction', {
      signerAddress: deployed,
      transactions,
      details: { ...details, chainId: CHAIN_ID },
    });
    await answer(pending, false);
    expect((await errorOf(pending)).code).toBe(4001);
  });

  it('stk_signDeployAccountTransaction: the chain deploys the account with the snap signature', async () => {
    await mint(undeployed, 10n ** 19n);
    const data = await result<{ address: string; class_hash: string; salt: string; calldata: string[] }>(
      send(snap, 'stk_getDeploymentData', { address: undeployed }),
    );
    expect(hex(hash.calculateContractAddressFromHash(data.salt, data.class_hash, data.calldata, 0))).toBe(
      hex(undeployed),
    );
    const signer = new ApprovingSnapSigner(undeployed);
    const account = new Account({ provider, address: undeployed, signer, cairoVersion: '1' });
    const sent = await account.deployAccount({
      classHash: data.class_hash,
      constructorCalldata: data.calldata,
      addressSalt: data.salt,
      contractAddress: undeployed,
    });
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(
      hex(await rpc<string>('starknet_getClassHashAt', { block_id: 'latest', contract_address: undeployed })),
    ).toBe(hex(data.class_hash));
    expect(signer.dialogs[0]).toContain('Sign account deployment');
    // deployed now: no deployment data any more
    expect((await errorOf(send(snap, 'stk_getDeploymentData', { address: undeployed }))).code).toBe(-32003);
  });

  it('stk_signDeployAccountTransaction refuses details that would deploy another contract', async () => {
    const err = await errorOf(
      send(snap, 'stk_signDeployAccountTransaction', {
        signerAddress: deployed,
        details: {
          chainId: CHAIN_ID,
          version: '0x3',
          nonce: '0x0',
          classHash: backend.accountClassHash,
          addressSalt: '0x1234',
          constructorCalldata: ['0x1234', '0x0'],
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: '0x1', max_price_per_unit: '0x1' },
            l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          },
        },
      }),
    );
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('do not give the account');
  });

  it('stk_signDeclareTransaction: starknet.js declares a class with the snap signature', async () => {
    const contract = fixture('hello_starknet__hello_starknet.contract_class.json');
    const casm = fixture('hello_starknet__hello_starknet.compiled_contract_class.json');
    const signer = new ApprovingSnapSigner(deployed);
    const account = new Account({ provider, address: deployed, signer, cairoVersion: '1' });
    const sent = await account.declare({ contract, casm });
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(hex(sent.class_hash)).toBe(hex(hash.computeContractClassHash(contract)));
    expect(signer.dialogs[0]).toContain('Sign declare transaction');
    expect(signer.dialogs[0]).toContain(hex(sent.class_hash));
  });
});

describe('stk_declareContract', () => {
  it('declares a Sierra class once; the second time it is already declared', async () => {
    const contract = fixture('minimal_contract__minimal_contract.contract_class.json');
    const casm = fixture('minimal_contract__minimal_contract.compiled_contract_class.json');
    const compiledClassHash = hash.computeCompiledClassHash(casm);
    const pending = send(snap, 'stk_declareContract', { senderAddress: deployed, contract, compiledClassHash });
    const text = dialogText(await answer(pending, true));
    const classHash = hex(hash.computeContractClassHash(contract));
    expect(text).toContain(classHash);
    const sent = await result<{ transaction_hash: string; class_hash: string }>(pending);
    expect(hex(sent.class_hash)).toBe(classHash);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(await rpc('starknet_getClass', { block_id: 'latest', class_hash: classHash })).toMatchObject({
      sierra_program: contract.sierra_program,
    });
    const again = await errorOf(
      send(snap, 'stk_declareContract', { senderAddress: deployed, contract, compiledClassHash }),
    );
    expect(again.code).toBe(-32007);
    const wrong = await errorOf(
      send(snap, 'stk_declareContract', { senderAddress: deployed, contract, compiledClassHash, classHash: '0x1' }),
    );
    expect(wrong.code).toBe(-32602);
    expect(wrong.message).toContain('classHash');
    expect((await errorOf(send(snap, 'stk_declareContract', { senderAddress: deployed, contract: {} }))).code).toBe(
      -32602,
    );
  });
});

describe('stk_switchNetwork and stk_watchAsset', () => {
  it('switching asks once; a refusal is 4001; an unknown chain is -32602', async () => {
    const refused = send(snap, 'stk_switchNetwork', {});
    await answer(refused, false);
    expect((await errorOf(refused)).code).toBe(4001);
    const pending = send(snap, 'stk_switchNetwork', {});
    expect(dialogText(await answer(pending, true))).toContain(CHAIN_ID);
    expect(await result(pending)).toBe(true);
    // already selected: no dialog
    expect(await result(send(snap, 'stk_switchNetwork', {}))).toBe(true);
    expect((await errorOf(send(snap, 'stk_switchNetwork', { chainId: '0x1234' }))).code).toBe(-32602);
  });

  it('watches STRK after reading it on chain; a contract that is not an ERC20 or wrong details are refused', async () => {
    const pending = send(snap, 'stk_watchAsset', { tokenAddress: STRK, tokenSymbol: 'STRK', tokenDecimals: 18 });
    const text = dialogText(await answer(pending, true));
    expect(text).toContain('STRK');
    expect(text).toContain('18');
    expect(await result(pending)).toBe(true);
    const notToken = await errorOf(send(snap, 'stk_watchAsset', { tokenAddress: deployed }));
    expect(notToken.code).toBe(-32602);
    expect(notToken.message).toContain('is not an ERC20');
    const wrong = await errorOf(send(snap, 'stk_watchAsset', { tokenAddress: STRK, tokenDecimals: 6 }));
    expect(wrong.message).toContain('tokenDecimals');
  });
});
