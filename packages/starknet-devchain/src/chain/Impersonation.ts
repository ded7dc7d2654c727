/**
 * Which senders are impersonated (`devnet_impersonateAccount`, `devnet_autoImpersonate`): their INVOKE and DECLARE
 * transactions are accepted without running the account's validation, so without a valid signature. Held by the
 * dev chain node (kept across `devnet_abortBlocks`, cleared by `devnet_restart` and `devnet_load`), never persisted.
 */
export class Impersonation {
  private readonly addresses = new Set<bigint>();
  private auto = false;

  /** Impersonate `address` from now on. */
  add(address: bigint): void {
    this.addresses.add(address);
  }

  /** Stop impersonating `address` (auto-impersonation, when on, still covers it). */
  remove(address: bigint): void {
    this.addresses.delete(address);
  }

  /** Impersonate every sender (on), or only the addresses added (off). */
  setAuto(on: boolean): void {
    this.auto = on;
  }

  /** Whether a transaction from `address` skips validation. */
  covers(address: bigint): boolean {
    return this.auto || this.addresses.has(address);
  }
}
