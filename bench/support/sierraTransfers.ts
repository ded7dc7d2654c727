// Signed ERC20 transfers per second on the Starknet dev chain: through a user-declared account
// class and a user-declared ERC20 class (the Cairo compiler's test `account` and `erc_20`, run on
// @nodegate/sierra-vm) against the dev chain's native account and STRK token, in one run.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Account,
  CallData,
  config,
  type constants,
  ec,
  hash,
  num,
  RpcProvider,
  stark,
  transaction,
  uint256,
} from 'starknet';
import { startStarknetDevchain } from '../../packages/gateway/dist/embedded/startStarknetDevchain.js';

config.set('logLevel', 'ERROR');

const FIXTURES =
  process.env.CAIRO_TEST_DATA ?? new URL('../../../shared/fixtures/cairo-test-data', import.meta.url).pathname;
const read = (name: string, kind = 'contract_class') =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.${kind}.json`), 'utf8'));
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
/** Fixed bounds and no tip: the transfers are timed without fee estimates or tip lookups. */
const DETAILS = {
  resourceBounds: {
    l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
    l2_gas: { max_amount: 2n * 10n ** 7n, max_price_per_unit: 2n * 10n ** 9n },
    l1_data_gas: { max_amount: 5000n, max_price_per_unit: 2n * 10n ** 9n },
  },
};

async function rpc(url: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * One sender, one token: signs `count` transfers with consecutive nonces (not timed: the client's
 * cost is the same for both paths), then submits them one after another over one connection and
 * waits for the last; transactions per second the chain took in.
 */
async function transfers(
  url: string,
  chainId: string,
  account: Account,
  token: string,
  to: string,
  count: number,
): Promise<number> {
  let nonce = BigInt(await account.getNonce());
  const calls = [
    {
      contractAddress: token,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: to, amount: uint256.bnToUint256(1n) }),
    },
  ];
  const calldata = transaction.getExecuteCalldata(calls, '1');
  const bounds = DETAILS.resourceBounds;
  const wire = (b: { max_amount: bigint; max_price_per_unit: bigint }) => ({
    max_amount: num.toHex(b.max_amount),
    max_price_per_unit: num.toHex(b.max_price_per_unit),
  });
  const signed: unknown[] = [];
  for (let i = 0; i < count; i++, nonce++) {
    const signature = await account.signer.signTransaction(calls, {
      walletAddress: account.address,
      cairoVersion: '1',
      chainId: chainId as constants.StarknetChainId,
      version: '0x3',
      nonce,
      resourceBounds: bounds,
      tip: 0n,
      paymasterData: [],
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 'L1',
      feeDataAvailabilityMode: 'L1',
    });
    signed.push({
      type: 'INVOKE',
      version: '0x3',
      sender_address: account.address,
      calldata: calldata.map((c) => num.toHex(c)),
      signature: stark.formatSignature(signature),
      nonce: num.toHex(nonce),
      resource_bounds: {
        l1_gas: wire(bounds.l1_gas),
        l2_gas: wire(bounds.l2_gas),
        l1_data_gas: wire(bounds.l1_data_gas),
      },
      tip: '0x0',
      paymaster_data: [],
      account_deployment_data: [],
      nonce_data_availability_mode: 'L1',
      fee_data_availability_mode: 'L1',
    });
  }
  const start = performance.now();
  let last = '';
  for (const tx of signed) {
    last = (
      (await rpc(url, 'starknet_addInvokeTransaction', { invoke_transaction: tx })) as { transaction_hash: string }
    ).transaction_hash;
  }
  const receipt = (await rpc(url, 'starknet_getTransactionReceipt', { transaction_hash: last })) as {
    execution_status: string;
  };
  const elapsed = performance.now() - start;
  if (receipt.execution_status !== 'SUCCEEDED')
    throw new Error(`a transfer did not succeed: ${JSON.stringify(receipt)}`);
  return (count * 1000) / elapsed;
}

/**
 * Starts a dev chain, sets up both paths, then measures `rounds` interleaved rounds of `count`
 * transfers each and returns the median rate of each path; checks the balances moved as sent.
 */
export async function measureSierraTransfers(opts: { rounds: number; count: number; log: (line: string) => void }) {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-bench-sierra-'));
  const chain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  try {
    const provider = new RpcProvider({ nodeUrl: chain.http });
    const predeployed = (await rpc(chain.http, 'devnet_getPredeployedAccounts', {})) as {
      address: string;
      private_key: string;
    }[];
    const [a, b] = predeployed;
    const native = new Account({ provider, address: a!.address, signer: a!.private_key });
    const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 20 });

    opts.log('setting up: declaring the account and ERC20 classes, deploying them on the VM…');
    const declare = async (name: string) => {
      const r = await native.declare({
        contract: read(name),
        compiledClassHash: hash.computeCompiledClassHash(read(name, 'compiled_contract_class')),
      });
      await wait(r.transaction_hash);
      return r.class_hash;
    };
    const accountClass = await declare('account__account');
    const erc20Class = await declare('erc20__erc_20');
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const address = hash.calculateContractAddressFromHash(publicKey, accountClass, [publicKey], 0);
    await rpc(chain.http, 'devnet_mint', { address, amount: 10 ** 20, unit: 'FRI' });
    const user = new Account({ provider, address, signer: privateKey });
    const deployed = await user.deployAccount({
      classHash: accountClass,
      constructorCalldata: [publicKey],
      addressSalt: publicKey,
    });
    await wait(deployed.transaction_hash);
    const token = await native.deploy({
      classHash: erc20Class,
      constructorCalldata: CallData.toHex(['0x4e47', '0x4e47', 18, 10n ** 18n, 0, address]),
      salt: '0x5',
    });
    await wait(token.transaction_hash);
    const userToken = token.contract_address[0]!;

    const chainId = await provider.getChainId();
    const run = (account: Account, token: string, count: number) =>
      transfers(chain.http, chainId, account, token, b!.address, count);
    const rates = { native: [] as number[], vm: [] as number[] };
    await run(native, STRK, 5); // warm-up of both paths
    await run(user, userToken, 5);
    for (let r = 0; r < opts.rounds; r++) {
      rates.native.push(await run(native, STRK, opts.count));
      rates.vm.push(await run(user, userToken, opts.count));
      opts.log(
        `round ${r + 1}/${opts.rounds}: native ${rates.native.at(-1)!.toFixed(0)} tx/s, VM ${rates.vm.at(-1)!.toFixed(0)} tx/s`,
      );
    }
    // every transfer landed: the recipient holds one token unit per transfer
    const sent = BigInt(5 + opts.rounds * opts.count);
    const held = await provider.callContract({
      contractAddress: userToken,
      entrypoint: 'balance_of',
      calldata: [b!.address],
    });
    if (BigInt(held[0]!) !== sent) throw new Error(`the VM token moved ${BigInt(held[0]!)} units, expected ${sent}`);
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    return { native: median(rates.native), vm: median(rates.vm) };
  } finally {
    await chain.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
