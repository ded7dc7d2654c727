/**
 * The methods the wallet connector (packages/get-starknet) needs: multicall transactions, declares, deployment
 * data, network switching, watched tokens, and sign-only methods checked by the chain itself (starknet.js Account
 * with a signer that asks the snap, so the node's own signature check decides).
 */
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
  type AddTx,
  answer,
  backend,
  boundsMax,
  CHAIN_ID,
  classHashAt,
  deployedAccount,
  dialogFields,
  dialogText,
  errorOf,
  field,
  fixture,
  hex,
  install,
  landedNonces,
  mint,
  NETWORK,
  nonceOf,
  PHRASES,
  parseStrk,
  result,
  rpc,
  STRK,
  type Snap,
  send,
  strkBalance,
  TINY_BOUNDS,
  waitAccepted,
} from './helpers';

type Bounds = Parameters<typeof boundsMax>[0];
/** Labels of the fields around the calls in a transaction dialog. */
const FRAME = ['Requested by', 'Network', 'From', 'Signer', 'Nonce', 'Estimated fee', 'Max fee'];
const callFields = (fields: [string, string][]) => fields.filter(([label]) => !FRAME.includes(label));
const labels = (fields: [string, string][]) => fields.map(([label]) => label);
/** What the snap shows for a u256 amount argument (named amount/value/balance): the number and its 18-decimal form. */
const amountText = (v: bigint) => {
  const frac = (v % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${v} (${v / 10n ** 18n}${frac ? `.${frac}` : ''} at 18 decimals)`;
};
/** The resource bounds a transaction was sent with, read from the chain. */
const sentBounds = async (txHash: string) =>
  (await rpc<{ resource_bounds: Bounds }>('starknet_getTransactionByHash', { transaction_hash: txHash }))
    .resource_bounds;
const actualFee = async (txHash: string) =>
  BigInt(
    (await rpc<{ actual_fee: { amount: string } }>('starknet_getTransactionReceipt', { transaction_hash: txHash }))
      .actual_fee.amount,
  );

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
  /** Per dialog shown: its fields and the details the signer was asked to sign. */
  shown: { fields: [string, string][]; details: Record<string, unknown> }[] = [];
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
    if (!query) {
      const ui = await answer(pending, true);
      this.dialogs.push(dialogText(ui));
      this.shown.push({ fields: dialogFields(ui), details: params.details as Record<string, unknown> });
    }
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

/** v3 invoke details for the sign-only tests (this chain, the deployed account, nonce 1), with `overrides`. */
const signDetails = (overrides: Record<string, unknown> = {}) => ({
  chainId: CHAIN_ID,
  walletAddress: deployed,
  nonce: '0x1',
  version: '0x3',
  resourceBounds: TINY_BOUNDS,
  ...overrides,
});

beforeAll(async () => {
  snap = await install(PHRASES.connector);
  deployed = await deployedAccount(snap, 10n ** 20n);
  undeployed = (await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 1 }))).address;
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
    const ui = await answer(pending, true);
    expect(dialogText(ui)).toContain('Send 2 calls in one transaction');
    const fields = dialogFields(ui);
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'From')).toBe(hex(deployed));
    // Both calls read with STRK's ABI (as the node returns it): argument names, the u256 amount joined.
    expect(callFields(fields)).toEqual([
      ['Call 1', `transfer on ${hex(STRK)}`],
      ['recipient', a],
      ['amount', amountText(100n)],
      ['Call 2', `transfer on ${hex(STRK)}`],
      ['recipient', b],
      ['amount', amountText(200n)],
    ]);
    expect(labels(fields)).not.toContain('Call data');
    const estimated = parseStrk(field(fields, 'Estimated fee'));
    const maxFee = parseStrk(field(fields, 'Max fee'));
    expect(estimated > 0n && estimated < maxFee).toBe(true);
    const sent = await result<AddTx>(pending);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(await strkBalance(a)).toBe(100n);
    expect(await strkBalance(b)).toBe(200n);
    expect(await nonceOf(deployed)).toBe(nonce + 1n);
    // The fee limit shown is the one signed and sent, and what was paid stays within it.
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(maxFee);
    expect(await actualFee(sent.transaction_hash)).toBeLessThanOrEqual(maxFee);
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
    const nonces = await landedNonces(hashes);
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

describe('stk_executeTxn fee limits: maxFee and resourceBounds', () => {
  const transfer = (to: string, amount: string) => [
    { contractAddress: STRK, entrypoint: 'transfer', calldata: [to, amount, '0'] },
  ];
  type Fee = { overall_fee: string; suggestedMaxFee: string };
  const estimate = () =>
    result<Fee>(
      send(snap, 'stk_estimateFee', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: '0x8a1,1,0',
        senderAddress: deployed,
      }),
    );

  it('maxFee between the estimate and the margin: the bounds shrink to fit, the dialog and the chain show them', async () => {
    const { overall_fee, suggestedMaxFee } = await estimate();
    const [bare, full] = [BigInt(overall_fee), BigInt(suggestedMaxFee)];
    expect(bare < full).toBe(true);
    const maxFee = bare + ((full - bare) * 3n) / 4n;
    const pending = send(snap, 'stk_executeTxn', {
      senderAddress: deployed,
      calls: transfer('0x8a1', '1'),
      maxFee: maxFee.toString(),
    });
    const fields = dialogFields(await answer(pending, true));
    const shown = parseStrk(field(fields, 'Max fee'));
    expect(shown <= maxFee && shown > bare).toBe(true);
    const sent = await result<AddTx>(pending);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(shown);
  });

  it('maxFee below the estimate is refused before any dialog (-32005), nothing sent', async () => {
    const nonce = await nonceOf(deployed);
    const err = await errorOf(
      send(snap, 'stk_executeTxn', { senderAddress: deployed, calls: transfer('0x8a2', '1'), maxFee: '1000' }),
    );
    expect(err.code).toBe(-32005);
    expect(err.message).toContain('maxFee 1000 is below the estimated fee');
    expect(await nonceOf(deployed)).toBe(nonce);
  });

  it('resourceBounds given: signed as given (no estimate in the dialog); above maxFee they are refused before any dialog', async () => {
    // bounds that are enough: those the snap chose for an earlier transfer, read from the chain
    const reference = send(snap, 'stk_executeTxn', { senderAddress: deployed, calls: transfer('0x8a3', '1') });
    await answer(reference, true);
    const refHash = (await result<AddTx>(reference)).transaction_hash;
    await waitAccepted(refHash);
    const bounds = await sentBounds(refHash);
    const total = boundsMax(bounds);

    const nonce = await nonceOf(deployed);
    const tooLow = await errorOf(
      send(snap, 'stk_executeTxn', {
        senderAddress: deployed,
        calls: transfer('0x8a4', '1'),
        resourceBounds: bounds,
        maxFee: (total - 1n).toString(),
      }),
    );
    expect(tooLow.code).toBe(-32602);
    expect(tooLow.message).toContain('resourceBounds');
    expect(tooLow.message).toContain(`more than maxFee ${total - 1n}`);
    expect(await nonceOf(deployed)).toBe(nonce);

    const pending = send(snap, 'stk_executeTxn', {
      senderAddress: deployed,
      calls: transfer('0x8a4', '2'),
      resourceBounds: bounds,
      maxFee: total.toString(),
    });
    const fields = dialogFields(await answer(pending, true));
    expect(labels(fields)).not.toContain('Estimated fee');
    expect(parseStrk(field(fields, 'Max fee'))).toBe(total);
    const sent = await result<AddTx>(pending);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    const onChain = await sentBounds(sent.transaction_hash);
    for (const k of ['l1_gas', 'l2_gas', 'l1_data_gas'] as const) {
      expect(BigInt(onChain[k].max_amount)).toBe(BigInt(bounds[k].max_amount));
      expect(BigInt(onChain[k].max_price_per_unit)).toBe(BigInt(bounds[k].max_price_per_unit));
    }
    expect(await strkBalance('0x8a4')).toBe(2n);
  });

  it('malformed fee parameters are -32602 naming them', async () => {
    for (const [extra, param] of [
      [{ maxFee: '-5' }, 'maxFee'],
      [{ maxFee: '0' }, 'maxFee'],
      [{ resourceBounds: { l1_gas: { max_amount: '0x1', max_price_per_unit: '0x1' } } }, 'resourceBounds.l2_gas'],
      [
        {
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: 'lots', max_price_per_unit: '0x1' },
            l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          },
        },
        'resourceBounds.l2_gas.max_amount',
      ],
    ] as const) {
      const err = await errorOf(
        send(snap, 'stk_executeTxn', { senderAddress: deployed, calls: transfer('0x8a5', '1'), ...extra }),
      );
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
    const { fields, details } = signer.shown[0]!;
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'Signer')).toBe(hex(deployed));
    expect(callFields(fields)).toEqual([
      ['Call', `transfer on ${hex(STRK)}`],
      ['recipient', '0x7c1'],
      ['amount', amountText(5n)],
    ]);
    expect(labels(fields)).not.toContain('Call data');
    expect(field(fields, 'Nonce')).toBe(BigInt(details.nonce as string).toString());
    const maxFee = parseStrk(field(fields, 'Max fee'));
    expect(maxFee).toBe(boundsMax(details.resourceBounds as Bounds));
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(maxFee);
  });

  it('stk_signTransaction dialogs fall back to the raw call data when the node has no contract (no ABI to read)', async () => {
    const nowhere = '0xdead5';
    const pending = send(snap, 'stk_signTransaction', {
      signerAddress: deployed,
      transactions: [{ contractAddress: nowhere, entrypoint: 'transfer', calldata: ['0x7c1', '0x5', '0x0'] }],
      details: signDetails({
        nonce: '0x9',
        resourceBounds: {
          l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          l2_gas: { max_amount: '0x10', max_price_per_unit: '0x3' },
          l1_data_gas: { max_amount: '0x2', max_price_per_unit: '0x1' },
        },
      }),
    });
    const fields = dialogFields(await answer(pending, false));
    expect(callFields(fields)).toEqual([
      ['Call', `transfer on ${nowhere}`],
      ['Call data', '0x7c1, 0x5, 0x0'],
    ]);
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'Nonce')).toBe('9');
    expect(parseStrk(field(fields, 'Max fee'))).toBe(0x10n * 3n + 2n);
    expect((await errorOf(pending)).code).toBe(4001);
  });

  it('stk_signTransaction refuses details for another chain or another account, and a refusal is 4001', async () => {
    const details = signDetails({ chainId: '0x534e5f4d41494e' });
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
    expect(hex(await classHashAt(undeployed))).toBe(hex(data.class_hash));
    expect(signer.dialogs[0]).toContain('Sign account deployment');
    const { fields, details } = signer.shown[0]!;
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'Account')).toBe(hex(undeployed));
    expect(field(fields, 'Class hash')).toBe(hex(data.class_hash));
    const maxFee = parseStrk(field(fields, 'Max fee'));
    expect(maxFee).toBe(boundsMax(details.resourceBounds as Bounds));
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(maxFee);
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
          resourceBounds: TINY_BOUNDS,
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
    const { fields, details } = signer.shown[0]!;
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'Signer')).toBe(hex(deployed));
    expect(field(fields, 'Class hash')).toBe(hex(sent.class_hash));
    expect(field(fields, 'Compiled class hash')).toBe(hex(hash.computeCompiledClassHash(casm)));
    expect(field(fields, 'Nonce')).toBe(BigInt(details.nonce as string).toString());
    const maxFee = parseStrk(field(fields, 'Max fee'));
    expect(maxFee).toBe(boundsMax(details.resourceBounds as Bounds));
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(maxFee);
  });
});

describe('stk_declareContract', () => {
  it('declares a Sierra class once; the second time it is already declared', async () => {
    const contract = fixture('minimal_contract__minimal_contract.contract_class.json');
    const casm = fixture('minimal_contract__minimal_contract.compiled_contract_class.json');
    const compiledClassHash = hash.computeCompiledClassHash(casm);
    const pending = send(snap, 'stk_declareContract', { senderAddress: deployed, contract, compiledClassHash });
    const ui = await answer(pending, true);
    expect(dialogText(ui)).toContain('Declare contract class');
    const fields = dialogFields(ui);
    const classHash = hex(hash.computeContractClassHash(contract));
    expect(field(fields, 'Network')).toBe(NETWORK);
    expect(field(fields, 'From')).toBe(hex(deployed));
    expect(field(fields, 'Class hash')).toBe(classHash);
    expect(field(fields, 'Compiled class hash')).toBe(hex(compiledClassHash));
    expect(field(fields, 'Entry points')).toBe(
      `${contract.entry_points_by_type.EXTERNAL.length} external, 0 L1 handler, 0 constructor`,
    );
    const estimated = parseStrk(field(fields, 'Estimated fee'));
    const maxFee = parseStrk(field(fields, 'Max fee'));
    expect(estimated > 0n && estimated < maxFee).toBe(true);
    const sent = await result<{ transaction_hash: string; class_hash: string }>(pending);
    expect(hex(sent.class_hash)).toBe(classHash);
    expect((await waitAccepted(sent.transaction_hash)).execution_status).toBe('SUCCEEDED');
    expect(boundsMax(await sentBounds(sent.transaction_hash))).toBe(maxFee);
    expect(await actualFee(sent.transaction_hash)).toBeLessThanOrEqual(maxFee);
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

describe('dialogs of a contract whose class has no ABI', () => {
  it('a class declared without ABI, deployed through the UDC (whose call is read with its ABI), shows raw call data', async () => {
    const contract = { ...fixture('minimal_contract__minimal_contract.contract_class.json'), abi: '[]' };
    const casm = fixture('minimal_contract__minimal_contract.compiled_contract_class.json');
    const declaring = send(snap, 'stk_declareContract', {
      senderAddress: deployed,
      contract,
      compiledClassHash: hash.computeCompiledClassHash(casm),
    });
    await answer(declaring, true);
    const declared = await result<{ transaction_hash: string; class_hash: string }>(declaring);
    expect((await waitAccepted(declared.transaction_hash)).execution_status).toBe('SUCCEEDED');
    const classHash = hex(declared.class_hash);

    const UDC = '0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125';
    const salt = '0x5a17';
    const deploying = send(snap, 'stk_executeTxn', {
      senderAddress: deployed,
      calls: [{ contractAddress: UDC, entrypoint: 'deploy_contract', calldata: [classHash, salt, '0x0', '0x0'] }],
    });
    const udcFields = dialogFields(await answer(deploying, true));
    expect(callFields(udcFields)).toEqual([
      ['Call', `deploy_contract on ${UDC}`],
      ['class_hash', classHash],
      ['salt', salt],
      ['not_from_zero', 'false'],
      ['calldata', '[]'],
    ]);
    expect((await waitAccepted((await result<AddTx>(deploying)).transaction_hash)).execution_status).toBe('SUCCEEDED');
    const address = hex(hash.calculateContractAddressFromHash(salt, classHash, [], 0));
    expect(hex(await classHashAt(address))).toBe(classHash);

    // The node returns the class, but it has no ABI: the call is shown as its raw felts.
    const signing = send(snap, 'stk_signTransaction', {
      signerAddress: deployed,
      transactions: [{ contractAddress: address, entrypoint: 'empty', calldata: ['0x7', '0x8'] }],
      details: signDetails(),
    });
    const fields = dialogFields(await answer(signing, false));
    expect(callFields(fields)).toEqual([
      ['Call', `empty on ${address}`],
      ['Call data', '0x7, 0x8'],
    ]);
    expect((await errorOf(signing)).code).toBe(4001);
  });
});

describe('stk_switchNetwork and stk_watchAsset', () => {
  it('stk_getCurrentNetwork is the test network until switched; switching to it answers at once; an unreachable or unknown network is refused and the selection stays', async () => {
    const current = { chainId: CHAIN_ID, name: NETWORK };
    expect(await result(send(snap, 'stk_getCurrentNetwork', {}))).toEqual(current);
    // already the selected network: true without a dialog (a dialog would leave this request pending)
    expect(await result(send(snap, 'stk_switchNetwork', {}))).toBe(true);
    // mainnet's node is a closed port in this build: refused before any dialog, nothing stored
    const unreachable = await errorOf(send(snap, 'stk_switchNetwork', { chainId: '0x534e5f4d41494e' }));
    expect(unreachable.code).toBe(-32006);
    expect(unreachable.message).toContain('Starknet Mainnet');
    expect((await errorOf(send(snap, 'stk_switchNetwork', { chainId: '0x1234' }))).code).toBe(-32602);
    expect(await result(send(snap, 'stk_getCurrentNetwork', {}))).toEqual(current);
    // The switch dialog itself (approve, refuse → 4001) is exercised with a reachable second network by the
    // connector's integration test (packages/get-starknet/src/walletAccount.integration.test.ts).
  });

  it('watches STRK after reading it on chain; a contract that is not an ERC20 or wrong details are refused', async () => {
    const pending = send(snap, 'stk_watchAsset', { tokenAddress: STRK, tokenSymbol: 'STRK', tokenDecimals: 18 });
    const text = dialogText(await answer(pending, true));
    expect(text).toContain('STRK');
    expect(text).toContain('18');
    expect(await result(pending)).toBe(true);
    // an account contract (no name()) and an address with nothing deployed are not ERC20s: the snap's NotErc20
    for (const tokenAddress of [deployed, '0xdead6']) {
      const notToken = await errorOf(send(snap, 'stk_watchAsset', { tokenAddress }));
      expect(notToken.code).toBe(-32008);
      expect(notToken.message).toContain(`${hex(tokenAddress)} is not an ERC20 token on ${NETWORK}`);
    }
    const wrong = await errorOf(send(snap, 'stk_watchAsset', { tokenAddress: STRK, tokenDecimals: 6 }));
    expect(wrong.code).toBe(-32602);
    expect(wrong.message).toContain('tokenDecimals');
  });
});
