/** starknet_specVersion: the supported spec version. */
export const SPEC_VERSION = '0.10.2';

/** Returns "0.10.2". */
export function starknet_specVersion(): string {
  return SPEC_VERSION;
}
