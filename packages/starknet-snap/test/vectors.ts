/** Key vector from the wallet reference: the snaps-jest default recovery phrase, address index 0. */
export const KEY_VECTOR = {
  mnemonic: 'test test test test test test test test test test test ball',
  privateKey: '0x531a5ab3fe52a0c54b8b4f70ecc022f7b8224372b886b39ecad0f9ec89688ca',
  publicKey: '0x1297ebe045cf72e92946f2daf84e7cbafdbe89bcb6f382e8fd3bdc254ea8a62',
  /** Address of the canonical Argent Cairo 1 account (class 0x029927c8…e2b) for that key. */
  argentAddress: '0x3a48f9784a19e574e3976351f36d3806b8c27a97a972d2e2834e067d2c52883',
} as const;
