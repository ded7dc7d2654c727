import {
  WELCOME_CLASS_TAG,
  WELCOME_TIMESTAMPS as STARKNET_TIMESTAMPS,
  WELCOME_TRANSFER_AMOUNT as STARKNET_TRANSFER_AMOUNT,
} from '@nodegate/starknet-devchain/welcome';

/**
 * The welcome state of the embedded backends (`embedded.welcome`, on for `npm start` without a
 * config): what a new embedded chain or IPFS repo starts with, so the root README's examples name
 * things that exist. Every value is fixed (accounts, nonces, fees, gas, block times, content), so
 * the hashes below are the same on every machine; `welcome.test.ts` checks them through the
 * gateway and the README test runs the README against them.
 */
export const WELCOME = {
  eth: {
    /** anvil's genesis (its `--timestamp`) and the two welcome blocks, 12 s apart (2026-01-01T00:00:00Z). */
    timestamps: { genesis: 1_767_225_600, deploy: 1_767_225_612, transfer: 1_767_225_624 },
    /** anvil's dev account 0 (its default mnemonic): it deploys (nonce 0) and sends (nonce 1). */
    account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    /** anvil's dev account 1: it receives the transfer. */
    recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    /** 1 ETH, in wei. */
    transferValue: 10n ** 18n,
    /**
     * The storage contract of the tests (`test-support/storageContract.ts`, the same bytecode):
     * its constructor sets slot 0 to 42 and `balances[deployer]` (a mapping at slot 1) to 7.
     */
    bytecode:
      '0x602a60005533600052600160205260076040600020556041602260003960416000f360203560003560005260016020526040600020556020356000527ffefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefe60206000a100',
    /** The storage contract deployed in block 1: slot 0 holds 42 (0x2a). */
    contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    slot0: `0x${'0'.repeat(62)}2a`,
    genesisHash: '0x4a851a0e8ddeaa7820f27388fd42043ba2fda5551f3e64fb5857b265f0dde4cd',
    deployBlockHash: '0x390106b11c93898f246067984ad0526803b7bc30b1479e5228cbb890859dfc8d',
    deployTransaction: '0x7cf2bb637a3eeaebacb3bea5f9a923cef680ad1cd2b6b9035b682b195afcf049',
    transferBlockHash: '0xfb0c9a36f127f12ee61da2eba55442970b6b86306f41ca66b05882e56d20bfa8',
    transferTransaction: '0xd0dfb81ae1610c477b2a629a9a459f0e72f4219866a916d7d32c1de88f79dcc5',
  },
  starknet: {
    /** The dev chain's own welcome state (`--welcome`): genesis, a STRK transfer, a DECLARE. */
    timestamps: STARKNET_TIMESTAMPS,
    transferAmount: STARKNET_TRANSFER_AMOUNT,
    classTag: WELCOME_CLASS_TAG,
    blockHashes: [
      '0x420fb00db1b3985028bc5349f8a2c56611de7c76c16b2e023b66e8fc4a01c05',
      '0x3c9e6f7648d7198da2d77c3db450ebea9870a583906683d97dfa9fc4f449507',
      '0x55d4dc4718af2feb9423806623d092a100ebc9afb09670d13d05be0ac7a6d2',
    ],
    transferTransaction: '0x20041d74c391214a9ee183168530445db059ed7d28cfc04d4f9e6511af1d3da',
    declareTransaction: '0x22ffe1367cd8d087451ba8632a5f1bccd9df98c5a7dbf6fb11a0a3a28138e6d',
    classHash: '0x7d76be8dc6a36f2250c62d57ad8d2e01c0db787475965b30fbad8cdf835fea6',
  },
  ipfs: {
    /** The welcome file, added to the embedded IPFS node and pinned by the development key. */
    name: 'welcome.txt',
    text:
      'Welcome to nodegate!\n' +
      'This file was added to the embedded IPFS node when the gateway first started, and the\n' +
      'development key pins it. Add your own files with /api/v0/add.\n',
    cid: 'Qmb8NEycW79pUUxYbh4TnqSExWNUxAWdzNTfom8JoDow44',
  },
} as const;
