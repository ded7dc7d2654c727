/** A dedicated IPFS gateway as the admin API shows it (`GET /accounts/{id}/gateways`). */
export interface Gateway {
  id: string;
  name: string;
  accountId: string;
  mode: 'restricted' | 'open';
  allowedOrigins: string[];
  createdAt: string;
  urls: { path: string; host: string | null; subdomain: string | null };
  /** Bytes the account's gateways served today (UTC), all together; null where not counted. */
  bandwidthToday: number | null;
  /** The plan's gatewayBandwidthPerDay (null: unbounded). */
  bandwidthPerDay: number | null;
}

/** A gateway token as listed (its secret is shown once, at creation). */
export interface GatewayToken {
  id: string;
  name: string;
  createdAt: string;
}
