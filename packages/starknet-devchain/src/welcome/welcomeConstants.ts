// The welcome state's fixed values, alone in a module of their own: the gateway reads them
// (`@nodegate/starknet-devchain/welcome`) without loading the dev chain.

/**
 * The welcome state's fixed times (unix seconds): genesis at 2026-01-01T00:00:00Z, then one block
 * 12 seconds after the other. Fixed times make the block hashes the same on every machine.
 */
export const WELCOME_TIMESTAMPS = { genesis: 1_767_225_600, transfer: 1_767_225_612, declare: 1_767_225_624 } as const;

/** What the welcome class is made from: `get_answer` returns this text's starknet_keccak. */
export const WELCOME_CLASS_TAG = 'welcome to nodegate';

/** STRK (in FRI) that the welcome transfer sends from predeployed account 0 to account 1. */
export const WELCOME_TRANSFER_AMOUNT = 10n ** 18n;
