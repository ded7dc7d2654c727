import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Account, CallData, Contract, config, ec, hash, RpcProvider, stark, uint256 } from 'starknet';
import { bounds3, readCairoTestData as read, readTestContract } from '@nodegate/starknet-devchain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StarknetTestGateway, startStarknetTestGateway } from '../../test-support/startStarknetTestGateway.js';
import { postJson } from '../../test-support/startTestGateway.js';

// Users' own Cairo contracts through nodegate, with starknet.js as a dApp uses it (unchanged): the
// dev chain behind the gateway runs declared Sierra classes on @nodegate/sierra-vm. The classes
// are the Cairo compiler's test data, read in place from the shared fixtures.
config.set('logLevel', 'ERROR');

const HYPERLANE_DIST = dirname(createRequire(import.meta.url).resolve('@hyperlane-xyz/starknet-core'));
/** A class of the npm package @hyperlane-xyz/starknet-core (OpenZeppelin components, compiler 2.10): its artifacts are ES modules of one JSON literal. */
const readHyperlane = (name: string, kind = 'contract_class') => {
  const text = readFileSync(join(HYPERLANE_DIST, `artifacts/${name}.${kind}.js`), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
};
const sel = (name: string) => hash.getSelectorFromName(name);
/** Explicit bounds, so that starknet.js does not estimate a transaction that is meant to fail. */
const BOUNDS = { resourceBounds: bounds3(2n * 10n ** 7n) };

let t: StarknetTestGateway;
let provider: RpcProvider;
let alice: Account;
let bob: Account;
let erc20Class: string;
let token: string;

const rpc = async (method: string, params: unknown) =>
  (await postJson(t.rpcUrl, { jsonrpc: '2.0', id: 1, method, params })).json as {
    result?: any;
    error?: { code: number; message: string; data?: unknown };
  };
const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
/** Declares a fixture class (with its CASM hash) or one of our own test contracts (`test-contracts/<name>`) unless an earlier test already did; its class hash. */
const declareOnce = async (name: string) => {
  const own = name.startsWith('test-contracts/');
  const contract = own ? readTestContract(name.slice('test-contracts/'.length)) : read(name);
  // our own contracts have no CASM: the compiled class hash is only carried, as a declarer sends it
  const compiledClassHash = own ? '0x1' : hash.computeCompiledClassHash(read(name, 'compiled_contract_class'));
  const r = await alice.declareIfNot({ contract, compiledClassHash });
  if (r.transaction_hash) expect((await wait(r.transaction_hash)).isSuccess()).toBe(true);
  return r.class_hash;
};

beforeAll(async () => {
  t = await startStarknetTestGateway();
  provider = new RpcProvider({ nodeUrl: t.rpcUrl });
  const accounts = (await rpc('devnet_getPredeployedAccounts', {})).result;
  alice = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });
  bob = new Account({ provider, address: accounts[1].address, signer: accounts[1].private_key });
});

afterAll(async () => {
  await t?.stop();
});

describe("users' own Cairo contracts through nodegate (starknet.js)", () => {
  it('declares the ERC20 class with its CASM hash, deploys it through the UDC, transfers, calls and reads events', async () => {
    const contract = read('erc20__erc_20');
    const compiledClassHash = hash.computeCompiledClassHash(read('erc20__erc_20', 'compiled_contract_class'));
    const declared = await alice.declare({ contract, compiledClassHash });
    expect((await wait(declared.transaction_hash)).isSuccess()).toBe(true);
    erc20Class = declared.class_hash;
    expect(BigInt(erc20Class)).toBe(BigInt(hash.computeContractClassHash(contract)));
    // the gateway serves the class back as declared (its stk_ name too)
    const served = await rpc('stk_getClass', { block_id: 'latest', class_hash: erc20Class });
    expect(served.error).toBeUndefined();
    expect(served.result.sierra_program).toEqual(contract.sierra_program);

    const deployed = await alice.deploy({
      classHash: erc20Class,
      constructorCalldata: CallData.toHex(['0x4e4754', '0x4e4754', 18, 1000, 0, alice.address]),
      salt: stark.randomAddress(),
    });
    expect((await wait(deployed.transaction_hash)).isSuccess()).toBe(true);
    token = deployed.contract_address[0]!;
    expect(BigInt(await provider.getClassHashAt(token))).toBe(BigInt(erc20Class));

    const c = new Contract({ abi: contract.abi, address: token, providerOrAccount: provider });
    expect(await c.balance_of(alice.address)).toBe(1000n);
    const sent = await alice.execute({
      contractAddress: token,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(250n) }),
    });
    expect((await wait(sent.transaction_hash)).isSuccess()).toBe(true);
    expect(await c.balance_of(alice.address)).toBe(750n);
    expect(await c.balance_of(bob.address)).toBe(250n);

    // a call with the stk_ name and named params
    const call = await rpc('stk_call', {
      request: { contract_address: token, entry_point_selector: sel('balance_of'), calldata: [bob.address] },
      block_id: 'latest',
    });
    expect(call.error).toBeUndefined();
    expect((call.result as string[]).map((x) => BigInt(x))).toEqual([250n, 0n]);

    const events = await provider.getEvents({
      address: token,
      keys: [[sel('Transfer')]],
      from_block: { block_number: 0 },
      to_block: 'latest',
      chunk_size: 100,
    });
    expect(events.events.map((e) => e.data.map((d) => BigInt(d)))).toEqual([
      [0n, BigInt(alice.address), 1000n, 0n],
      [BigInt(alice.address), BigInt(bob.address), 250n, 0n],
    ]);
  });

  it('a panic reverts the transaction with its reason and the fee charged; call and estimate answer 40 and 41', async () => {
    const overdraft = {
      contractAddress: token,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(10_000n) }),
    };
    const before = await new Contract({
      abi: read('erc20__erc_20').abi,
      address: token,
      providerOrAccount: provider,
    }).balance_of(alice.address);
    const { transaction_hash } = await alice.execute(overdraft, BOUNDS);
    expect((await wait(transaction_hash)).isReverted()).toBe(true);
    const receipt = (await rpc('starknet_getTransactionReceipt', { transaction_hash })).result;
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toMatch(/u256_sub Overflow/);
    expect(BigInt(receipt.actual_fee.amount)).toBeGreaterThan(0n);
    // nothing of the transfer stayed
    const after = await new Contract({
      abi: read('erc20__erc_20').abi,
      address: token,
      providerOrAccount: provider,
    }).balance_of(alice.address);
    expect(after).toBe(before);

    await expect(alice.estimateInvokeFee(overdraft)).rejects.toThrow(/u256_sub Overflow/);
    // a call has caller 0, and the ERC20 refuses a transfer from the zero address
    const call = await rpc('starknet_call', {
      request: {
        contract_address: token,
        entry_point_selector: sel('transfer'),
        calldata: [bob.address, '0x1', '0x0'],
      },
      block_id: 'latest',
    });
    expect(call.error?.code).toBe(40);
    expect(JSON.stringify(call.error?.data)).toMatch(/ERC20: transfer from 0/);
  });

  it('a proxy runs its implementation through library_call, and the trace shows the nested call', async () => {
    const counterClass = await declareOnce('upgradable_counter__counter_contract');
    const proxyClass = await declareOnce('proxy__proxy');
    const deployed = await alice.deploy({ classHash: proxyClass, constructorCalldata: [counterClass], salt: '0x1' });
    await wait(deployed.transaction_hash);
    const proxy = deployed.contract_address[0]!;
    const inc = await alice.execute({ contractAddress: proxy, entrypoint: 'increase_counter', calldata: [7] });
    expect((await wait(inc.transaction_hash)).isSuccess()).toBe(true);
    expect(await provider.callContract({ contractAddress: proxy, entrypoint: 'get_counter' })).toEqual(['0x7']);
    const trace = (await rpc('stk_traceTransaction', { transaction_hash: inc.transaction_hash })).result;
    const proxyCall = trace.execute_invocation.calls[0];
    expect(BigInt(proxyCall.class_hash)).toBe(BigInt(proxyClass));
    expect(proxyCall.calls[0]).toMatchObject({
      call_type: 'LIBRARY_CALL',
      entry_point_selector: sel('increase_counter'),
    });
    expect(BigInt(proxyCall.calls[0].class_hash)).toBe(BigInt(counterClass));
  });

  it('an OpenZeppelin ERC721 (compiler 2.10): minted by its constructor, ownership, events, approvals, a refused transfer', async () => {
    const contract = readHyperlane('contracts_TestERC721');
    const declared = await alice.declare({
      contract,
      compiledClassHash: hash.computeCompiledClassHash(
        readHyperlane('contracts_TestERC721', 'compiled_contract_class'),
      ),
    });
    expect((await wait(declared.transaction_hash)).isSuccess()).toBe(true);
    const deployed = await alice.deploy({
      classHash: declared.class_hash,
      constructorCalldata: CallData.compile({ mint_amount: uint256.bnToUint256(3n) }),
      salt: '0x721',
    });
    const rec = await wait(deployed.transaction_hash);
    expect(rec.isSuccess()).toBe(true);
    const address = deployed.contract_address[0]!;
    const nft = new Contract({ abi: contract.abi, address, providerOrAccount: provider });
    // the constructor mints to its caller: the UDC that deployed it
    const receipt = (await rpc('starknet_getTransactionReceipt', { transaction_hash: deployed.transaction_hash }))
      .result;
    const udc = BigInt(
      receipt.events.find((e: { keys: string[] }) => e.keys[0] === sel('ContractDeployed')).from_address,
    );
    const mints = receipt.events.filter(
      (e: { from_address: string; keys: string[] }) =>
        BigInt(e.from_address) === BigInt(address) && e.keys[0] === sel('Transfer'),
    );
    expect(mints.map((e: { keys: string[] }) => e.keys.slice(1).map((k) => BigInt(k)))).toEqual(
      [0n, 1n, 2n].map((id) => [0n, udc, id, 0n]),
    );
    expect(await nft.balance_of(udc)).toBe(3n);
    for (const id of [0n, 1n, 2n]) expect(BigInt(await nft.owner_of(uint256.bnToUint256(id)))).toBe(udc);
    await expect(nft.owner_of(uint256.bnToUint256(3n))).rejects.toThrow(/ERC721: invalid token ID/);

    // a transfer by someone who neither owns nor is approved is refused with the contract's reason
    const steal = await alice.execute(
      {
        contractAddress: address,
        entrypoint: 'transfer_from',
        calldata: CallData.compile({ from: udc, to: alice.address, token_id: uint256.bnToUint256(1n) }),
      },
      BOUNDS,
    );
    expect((await wait(steal.transaction_hash)).isReverted()).toBe(true);
    const refused = (await rpc('starknet_getTransactionReceipt', { transaction_hash: steal.transaction_hash })).result;
    expect(refused.revert_reason).toMatch(/ERC721: unauthorized caller/);
    expect(BigInt(await nft.owner_of(uint256.bnToUint256(1n)))).toBe(udc);

    // operator approval: stored, readable, with its event
    const approve = await alice.execute({
      contractAddress: address,
      entrypoint: 'set_approval_for_all',
      calldata: CallData.compile({ operator: bob.address, approved: true }),
    });
    expect((await wait(approve.transaction_hash)).isSuccess()).toBe(true);
    expect(await nft.is_approved_for_all(alice.address, bob.address)).toBe(true);
    expect(await nft.is_approved_for_all(bob.address, alice.address)).toBe(false);
    const events = await provider.getEvents({
      address,
      keys: [[sel('ApprovalForAll')]],
      from_block: { block_number: 0 },
      to_block: 'latest',
      chunk_size: 10,
    });
    expect(events.events.map((e) => [...e.keys.slice(1), ...e.data].map((x) => BigInt(x)))).toEqual([
      [BigInt(alice.address), BigInt(bob.address), 1n],
    ]);
  });

  it('differential: the fixture ERC20 on the VM and the native ERC20 run one sequence to the same balances, allowances and events', async () => {
    const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
    const nativeClass = await provider.getClassHashAt(STRK);
    const carol = stark.randomAddress();
    const ctor = CallData.toHex(['0x44494646', '0x44', 18, 1_000_000, 0, alice.address]);
    const deployOf = async (classHash: string, salt: string) => {
      const r = await alice.deploy({ classHash, constructorCalldata: ctor, salt });
      expect((await wait(r.transaction_hash)).isSuccess()).toBe(true);
      return r.contract_address[0]!;
    };
    const vmToken = await deployOf(erc20Class, '0xd1ff');
    const nativeToken = await deployOf(nativeClass, '0xd1ff');
    const u = (n: bigint) => uint256.bnToUint256(n);
    const run = async (address: string) => {
      const steps: Array<[Account, string, unknown]> = [
        [alice, 'transfer', { recipient: bob.address, amount: u(1_234n) }],
        [alice, 'approve', { spender: bob.address, amount: u(50_000n) }],
        [bob, 'transfer_from', { sender: alice.address, recipient: carol, amount: u(20_001n) }],
        [bob, 'transfer', { recipient: carol, amount: u(34n) }],
        [alice, 'approve', { spender: carol, amount: u(7n) }],
      ];
      for (const [from, entrypoint, args] of steps) {
        const r = await from.execute({
          contractAddress: address,
          entrypoint,
          calldata: CallData.compile(args as Record<string, never>),
        });
        expect((await wait(r.transaction_hash)).isSuccess(), `${entrypoint} on ${address}`).toBe(true);
      }
      // a transfer_from over the allowance fails on both
      const over = await bob.execute(
        {
          contractAddress: address,
          entrypoint: 'transfer_from',
          calldata: CallData.compile({ sender: alice.address, recipient: carol, amount: u(10n ** 9n) }),
        },
        BOUNDS,
      );
      expect((await wait(over.transaction_hash)).isReverted()).toBe(true);
      const read = async (entrypoint: string, calldata: string[]) =>
        (await provider.callContract({ contractAddress: address, entrypoint, calldata })).map((x) => BigInt(x));
      const state = {
        balances: await Promise.all([alice.address, bob.address, carol].map((a) => read('balance_of', [a]))),
        allowances: await Promise.all(
          [
            [alice.address, bob.address],
            [alice.address, carol],
          ].map((pair) => read('allowance', pair)),
        ),
      };
      const events = await provider.getEvents({
        address,
        from_block: { block_number: 0 },
        to_block: 'latest',
        chunk_size: 100,
      });
      return {
        state,
        events: events.events.map((e) => ({
          keys: e.keys.map((k) => BigInt(k)),
          data: e.data.map((d) => BigInt(d)),
        })),
      };
    };
    const onVm = await run(vmToken);
    const native = await run(nativeToken);
    expect(onVm.state).toEqual(native.state);
    expect(onVm.state.balances).toEqual([
      [1_000_000n - 1_234n - 20_001n, 0n],
      [1_234n - 34n, 0n],
      [20_001n + 34n, 0n],
    ]);
    expect(onVm.state.allowances).toEqual([
      [50_000n - 20_001n, 0n],
      [7n, 0n],
    ]);
    const named = (name: string, events: typeof onVm.events) => events.filter((e) => e.keys[0] === BigInt(sel(name)));
    expect(named('Transfer', onVm.events)).toEqual(named('Transfer', native.events));
    expect(named('Transfer', onVm.events)).toHaveLength(4);
    // the one difference is the contracts' own: the compiler's example ERC20 also emits Approval
    // with the allowance left when transfer_from spends it (the native token, like OpenZeppelin's
    // current ERC20, does not)
    const spent = { keys: [BigInt(sel('Approval'))], data: [BigInt(alice.address), BigInt(bob.address), 29_999n, 0n] };
    expect(named('Approval', onVm.events)).toEqual([
      named('Approval', native.events)[0],
      spent,
      named('Approval', native.events)[1],
    ]);
  });

  it('a user-declared account class: deployed with DEPLOY_ACCOUNT, sends a transfer, a wrong signature is refused', async () => {
    const contract = read('account__account');
    const declared = await alice.declare({
      contract,
      compiledClassHash: hash.computeCompiledClassHash(read('account__account', 'compiled_contract_class')),
    });
    expect((await wait(declared.transaction_hash)).isSuccess()).toBe(true);
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const address = hash.calculateContractAddressFromHash(publicKey, declared.class_hash, [publicKey], 0);
    const funded = await rpc('devnet_mint', { address, amount: 10 ** 19, unit: 'FRI' });
    expect(funded.error).toBeUndefined();
    const user = new Account({ provider, address, signer: privateKey });
    const dep = await user.deployAccount({
      classHash: declared.class_hash,
      constructorCalldata: [publicKey],
      addressSalt: publicKey,
    });
    expect((await wait(dep.transaction_hash)).isSuccess()).toBe(true);
    expect(BigInt(dep.contract_address)).toBe(BigInt(address));
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(declared.class_hash));

    const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
    const balance = async (a: string) =>
      BigInt((await provider.callContract({ contractAddress: STRK, entrypoint: 'balance_of', calldata: [a] }))[0]!);
    const bobBefore = await balance(bob.address);
    const sent = await user.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(12_345n) }),
    });
    expect((await wait(sent.transaction_hash)).isSuccess()).toBe(true);
    expect((await balance(bob.address)) - bobBefore).toBe(12_345n);
    expect(await provider.getNonceForAddress(address)).toBe('0x2');

    // the same account driven with another key: its __validate__ refuses, nothing is sent
    const impostor = new Account({ provider, address, signer: stark.randomAddress() });
    await expect(
      impostor.execute(
        {
          contractAddress: STRK,
          entrypoint: 'transfer',
          calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(1n) }),
        },
        BOUNDS,
      ),
    ).rejects.toThrow(/validat|signature/i);
    expect(await provider.getNonceForAddress(address)).toBe('0x2');
  });
  it('a contract deploys another with deploy_syscall: the child lives at the address the factory computes and runs', async () => {
    const erc20 = await declareOnce('erc20__erc_20');
    const factoryClass = await declareOnce('test-contracts/factory');
    const f = await alice.deploy({ classHash: factoryClass, salt: '0xfac' });
    expect((await wait(f.transaction_hash)).isSuccess()).toBe(true);
    const factory = f.contract_address[0]!;

    const ctor = CallData.toHex(['0x4b4944', '0x4b4944', 6, 777, 0, bob.address]);
    const salt = '0x5eed';
    const sent = await alice.execute({
      contractAddress: factory,
      entrypoint: 'deploy_child',
      calldata: CallData.compile({ class_hash: erc20, salt, calldata: ctor }),
    });
    expect((await wait(sent.transaction_hash)).isSuccess()).toBe(true);
    // deploy_from_zero false: the deployer in the address is the factory
    const expected = hash.calculateContractAddressFromHash(salt, erc20, ctor, factory);
    const [last] = await provider.callContract({ contractAddress: factory, entrypoint: 'last_child' });
    expect(BigInt(last!)).toBe(BigInt(expected));
    expect(await provider.callContract({ contractAddress: factory, entrypoint: 'children' })).toEqual(['0x1']);
    expect(BigInt(await provider.getClassHashAt(expected))).toBe(BigInt(erc20));
    // the child's constructor ran: bob holds its supply, and the child's own entry points answer
    const child = new Contract({ abi: read('erc20__erc_20').abi, address: expected, providerOrAccount: provider });
    expect(await child.balance_of(bob.address)).toBe(777n);
    // the receipt has the child's constructor event (mint) and then the factory's ChildDeployed
    const r = (await rpc('stk_getTransactionReceipt', { transaction_hash: sent.transaction_hash })).result;
    const fromChild = r.events.filter((e: { from_address: string }) => BigInt(e.from_address) === BigInt(expected));
    expect(fromChild.map((e: { keys: string[] }) => e.keys[0])).toEqual([sel('Transfer')]);
    const fromFactory = r.events.filter((e: { from_address: string }) => BigInt(e.from_address) === BigInt(factory));
    expect(fromFactory).toHaveLength(1);
    expect(fromFactory[0].keys.map(BigInt)).toEqual([BigInt(sel('ChildDeployed')), BigInt(erc20)]);
    // the state update lists the child as deployed
    const su = (await rpc('stk_getStateUpdate', { block_id: { block_number: r.block_number } })).result;
    expect(su.state_diff.deployed_contracts.map((d: { address: string }) => BigInt(d.address))).toContain(
      BigInt(expected),
    );
    // the trace shows the DEPLOY's constructor nested under the factory's call
    const trace = (await rpc('stk_traceTransaction', { transaction_hash: sent.transaction_hash })).result;
    const factoryCall = trace.execute_invocation.calls[0];
    expect(factoryCall.calls[0]).toMatchObject({ entry_point_type: 'CONSTRUCTOR' });
    expect(BigInt(factoryCall.calls[0].contract_address)).toBe(BigInt(expected));

    // the same salt again: the address is taken, the transaction reverts and the count stays
    const again = await alice.execute(
      {
        contractAddress: factory,
        entrypoint: 'deploy_child',
        calldata: CallData.compile({ class_hash: erc20, salt, calldata: ctor }),
      },
      BOUNDS,
    );
    expect((await wait(again.transaction_hash)).isReverted()).toBe(true);
    expect(await provider.callContract({ contractAddress: factory, entrypoint: 'children' })).toEqual(['0x1']);
  });

  it('an upgrade through replace_class: the owner swaps the class, the contract keeps its storage and runs the new code', async () => {
    const multi = await declareOnce('multi_component__contract_with_4_components');
    const counter = await declareOnce('upgradable_counter__counter_contract');
    const d = await alice.deploy({
      classHash: multi,
      constructorCalldata: CallData.toHex(['0x41', '0x42', 18, 50, 0, alice.address, alice.address]),
      salt: '0xab',
    });
    expect((await wait(d.transaction_hash)).isSuccess()).toBe(true);
    const address = d.contract_address[0]!;
    const upgrade = { contractAddress: address, entrypoint: 'upgrade', calldata: [counter] };

    const denied = await bob.execute(upgrade, BOUNDS);
    expect((await wait(denied.transaction_hash)).isReverted()).toBe(true);
    const deniedReceipt = (await rpc('stk_getTransactionReceipt', { transaction_hash: denied.transaction_hash }))
      .result;
    expect(deniedReceipt.revert_reason).toMatch(/Wrong owner\./);
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(multi));

    const up = await alice.execute(upgrade);
    expect((await wait(up.transaction_hash)).isSuccess()).toBe(true);
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(counter));
    const su = (
      await rpc('stk_getStateUpdate', {
        block_id: {
          block_number: (
            await rpc('stk_getTransactionReceipt', { transaction_hash: up.transaction_hash })
          ).result.block_number,
        },
      })
    ).result;
    expect(su.state_diff.replaced_classes).toEqual([
      { contract_address: `0x${BigInt(address).toString(16)}`, class_hash: `0x${BigInt(counter).toString(16)}` },
    ]);
    // the counter's code now runs over the contract's storage
    const inc = await alice.execute({ contractAddress: address, entrypoint: 'increase_counter', calldata: [5] });
    expect((await wait(inc.transaction_hash)).isSuccess()).toBe(true);
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'get_counter' })).toEqual(['0x5']);
    // the old class's entry points are gone (21: ENTRYPOINT_NOT_FOUND… reported as a contract error)
    const old = await rpc('stk_call', {
      request: { contract_address: address, entry_point_selector: sel('get_symbol'), calldata: [] },
      block_id: 'latest',
    });
    expect(old.error).toBeDefined();
    // and the owner, kept in storage, upgrades it back
    const back = await alice.execute({ contractAddress: address, entrypoint: 'upgrade', calldata: [multi] });
    expect((await wait(back.transaction_hash)).isSuccess()).toBe(true);
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(multi));
  });
});
