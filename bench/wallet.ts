// npm run bench -- wallet [--rounds N]
// Time from wallet_addInvokeTransaction (the get-starknet connector → simulated MetaMask running the real
// nodegate snap → nodegate → dev chain) to the transaction hash: one transaction, and three back to back.
// Baseline in the same run: the same STRK transfer signed and sent directly with starknet.js Account through
// the same nodegate endpoint (a dev chain predeployed account, key in process).
import { Account, config, RpcProvider } from 'starknet';
import { startWalletHarness } from '../packages/get-starknet/dist/testing/startWalletHarness.js';

config.set('logLevel', 'ERROR'); // starknet.js tip-estimate warnings on a young chain

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 10;
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const transfer = (amount: number) => ({
  contract_address: STRK,
  entry_point: 'transfer',
  calldata: ['0x5454', String(amount), '0'],
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  const h = await startWalletHarness({ secretRecoveryPhrase: 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong' });
  try {
    const [address] = (await h.wallet.request({ type: 'wallet_requestAccounts' })) as string[];
    if (!address) throw new Error('no account');
    await h.fundAndDeploy(address, { amount: 10n ** 21n });

    // Baseline: starknet.js Account with a predeployed dev chain account, through the same nodegate endpoint.
    const [pre] = await h.rpc<{ address: string; private_key: string }[]>('devnet_getPredeployedAccounts');
    if (!pre) throw new Error('no predeployed account');
    const direct = new Account({
      provider: new RpcProvider({ nodeUrl: h.rpcUrl }),
      address: pre.address,
      signer: pre.private_key,
    });
    const baseCall = (n: number) => ({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: ['0x5454', String(n), '0'],
    });
    const base1: number[] = [];
    const base3: number[] = [];
    await direct.execute(baseCall(1)); // warm-up
    for (let i = 0; i < rounds; i++) base1.push(await timeIt(() => direct.execute(baseCall(1))));
    for (let i = 0; i < rounds; i++) {
      base3.push(
        await timeIt(async () => {
          for (let k = 0; k < 3; k++) await direct.execute(baseCall(k + 1));
        }),
      );
    }

    // The connector.
    const send = (n: number) =>
      h.wallet.request({ type: 'wallet_addInvokeTransaction', params: { calls: [transfer(n)] } });
    await send(1); // warm-up
    const conn1: number[] = [];
    const conn3: number[] = [];
    for (let i = 0; i < rounds; i++) conn1.push(await timeIt(() => send(1)));
    for (let i = 0; i < rounds; i++) {
      conn3.push(
        await timeIt(async () => {
          for (let k = 0; k < 3; k++) await send(k + 1);
        }),
      );
    }
    process.stdout.write(
      [
        `rounds: ${rounds}, medians, dev chain through nodegate, dialogs answered at once by the harness`,
        `baseline starknet.js Account.execute: single ${fmt(median(base1))}, three back-to-back ${fmt(median(base3))}`,
        `connector wallet_addInvokeTransaction (stk_executeTxn): single ${fmt(median(conn1))}, three back-to-back ${fmt(median(conn3))}`,
        `ratio single ${(median(conn1) / median(base1)).toFixed(2)}x, three ${(median(conn3) / median(base3)).toFixed(2)}x`,
        `dialogs shown: ${h.user.dialogs}`,
        '',
      ].join('\n'),
    );
  } finally {
    await h.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
