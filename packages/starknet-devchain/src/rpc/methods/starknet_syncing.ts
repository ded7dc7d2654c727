/** starknet_syncing: a dev chain is never syncing. */
export function starknet_syncing(): false {
  return false;
}
