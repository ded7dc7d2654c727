import { type CompiledSierra, type ContractClass, hash, json, type ResourceBoundsBN, Signer, stark } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { assertCanPayFee } from '../lib/balance';
import { chainCall, deployedClassHash, providerFor } from '../lib/chain';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam, SnapErrorCode, snapError } from '../lib/errors';
import { boundsTotal, resourceBoundsFor } from '../lib/fees';
import { formatUnits } from '../lib/format';
import { normHex } from '../lib/keys';
import { optAmount, type Params, reqAddress, reqHash } from '../lib/params';
import { sendWithNextNonce } from '../lib/send';
import type { RequestContext } from '../methods';

/** What stk_declareContract answers. */
export interface DeclareResult {
  transaction_hash: string;
  class_hash: string;
}

/**
 * The ABI as text, spaced as starknet.js writes it (`": "` and `", "` outside strings), so the class hash the node
 * computes from the text is the one computed here from the object.
 */
function abiText(abi: unknown): string {
  const text = JSON.stringify(abi);
  let inside = false;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' && text[i - 1] !== '\\') inside = !inside;
    out += !inside && (ch === ':' || ch === ',') ? `${ch} ` : ch;
  }
  return out;
}

function sierraClass(p: Params): CompiledSierra {
  const v = p.contract;
  let c: unknown = v;
  if (typeof v === 'string') {
    try {
      c = json.parse(v);
    } catch {
      throw invalidParam('contract', 'is not valid JSON (a Sierra contract class)');
    }
  }
  const o = c as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || !Array.isArray(o.sierra_program) || !o.entry_points_by_type) {
    throw invalidParam('contract', 'must be a Sierra contract class (sierra_program, entry_points_by_type, abi)');
  }
  // the ABI as an object: the class hash is computed over its canonical text, which is also what is sent
  let abi = o.abi ?? [];
  if (typeof abi === 'string') {
    try {
      abi = JSON.parse(abi);
    } catch {
      throw invalidParam('contract', 'has an abi that is not JSON');
    }
  }
  return { ...o, abi } as unknown as CompiledSierra;
}

/**
 * stk_declareContract: declares a Sierra class (DECLARE v3) from `senderAddress`, after a dialog showing the class
 * hash, the compiled class hash, its entry points, the fee limits and the network. A class already declared is
 * refused before anything is signed.
 *
 * @param p - `{senderAddress, contract, compiledClassHash, classHash?, maxFee?}`; `contract` as an object or JSON text.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns `{transaction_hash, class_hash}`.
 */
export async function stk_declareContract(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<DeclareResult> {
  const sender = reqAddress(p, 'senderAddress');
  const contract = sierraClass(p);
  const compiledClassHash = reqHash(p, 'compiledClassHash');
  const maxFee = optAmount(p, 'maxFee');
  const classHash = normHex(hash.computeContractClassHash(contract));
  if (p.classHash !== undefined && BigInt(reqHash(p, 'classHash')) !== BigInt(classHash)) {
    throw invalidParam('classHash', `does not match the class: its hash is ${classHash}`);
  }
  const acc = await findWalletAccount(net, sender, 'senderAddress');
  if ((await deployedClassHash(net, acc.address)) === undefined) {
    throw snapError(
      SnapErrorCode.AccountNotDeployed,
      `The sender ${acc.address} is not deployed on ${net.name} yet; deploy it before declaring classes`,
    );
  }
  const declared = await providerFor(net)
    .getClassByHash(classHash)
    .then(
      () => true,
      () => false,
    );
  if (declared) {
    throw snapError(SnapErrorCode.ClassAlreadyDeclared, `Class ${classHash} is already declared on ${net.name}`, {
      classHash,
    });
  }
  // The class goes to the node as the spec shapes it (program as felts, ABI as text). starknet.js's Account.declare
  // gzips the program on the way (CompressionStream, which the snap's sandbox lacks), so the declare is built here.
  const { sierra_program_debug_info: _debug, ...rest } = contract as CompiledSierra & {
    sierra_program_debug_info?: unknown;
  };
  const rpcClass = {
    ...rest,
    abi: abiText(rest.abi),
  } as unknown as ContractClass;
  const provider = providerFor(net);
  const v3 = (nonce: bigint, resourceBounds: ResourceBoundsBN) => ({
    version: '0x3' as const,
    nonce,
    resourceBounds,
    tip: 0n,
    paymasterData: [],
    accountDeploymentData: [],
    nonceDataAvailabilityMode: 'L1' as const,
    feeDataAvailabilityMode: 'L1' as const,
  });
  const zero = { max_amount: 0n, max_price_per_unit: 0n };
  const estimate = await chainCall(net, `estimate the fee of declaring ${classHash}`, async () => {
    const nonce = BigInt(await provider.getNonceForAddress(acc.address, 'pre_confirmed'));
    const tx = { contract: rpcClass, senderAddress: acc.address, signature: [], compiledClassHash };
    return provider.getDeclareEstimateFee(
      tx,
      v3(nonce, { l1_gas: zero, l2_gas: zero, l1_data_gas: zero } as ResourceBoundsBN),
      'pre_confirmed',
      true,
    );
  });
  const resourceBounds = resourceBoundsFor(estimate, maxFee);
  await assertCanPayFee(net, acc.address, boundsTotal(resourceBounds), 'declare');
  const eps = contract.entry_points_by_type as Record<string, unknown[]>;
  await confirmOrReject('Declare contract class', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['From', acc.address],
    ['Class hash', classHash],
    ['Compiled class hash', compiledClassHash],
    [
      'Entry points',
      `${eps.EXTERNAL?.length ?? 0} external, ${eps.L1_HANDLER?.length ?? 0} L1 handler, ${eps.CONSTRUCTOR?.length ?? 0} constructor`,
    ],
    ['Estimated fee', formatUnits(BigInt(estimate.overall_fee))],
    ['Max fee', formatUnits(boundsTotal(resourceBounds))],
  ]);
  const sent = await sendWithNextNonce(
    net,
    acc,
    `declare ${classHash}`,
    { txnType: 'DECLARE', contractAddress: classHash, contractFuncName: 'declare', contractCallData: [] },
    async (nonce) => {
      const details = v3(nonce, resourceBounds);
      const signature = await new Signer(acc.keys.privateKey).signDeclareTransaction({
        ...details,
        classHash,
        compiledClassHash,
        senderAddress: acc.address,
        chainId: net.chainId as never,
      });
      return provider.declareContract(
        {
          contract: rpcClass,
          senderAddress: acc.address,
          signature: stark.formatSignature(signature),
          compiledClassHash,
        },
        details,
      );
    },
  );
  return { transaction_hash: sent.transaction_hash, class_hash: classHash };
}
