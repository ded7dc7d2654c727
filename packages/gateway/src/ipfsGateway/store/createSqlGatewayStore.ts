import type { SqlConnection } from '../../store/SqlConnection.js';
import type { GatewayMode, GatewayRecord, GatewayTokenRecord } from '../GatewayRecord.js';
import { GATEWAY_SCHEMAS, GATEWAY_SQL } from './gatewaySql.js';
import type { GatewayStore } from './GatewayStore.js';

interface GatewayRow {
  id: string;
  name: string;
  account_id: string;
  mode: string;
  allowed_origins: string;
  /** a Date (PostgreSQL) or epoch ms (SQLite) */
  created_at: Date | string | number;
}

interface TokenRow {
  id: string;
  gateway_id: string;
  name: string;
  created_at: Date | string | number;
}

const toGateway = (r: GatewayRow): GatewayRecord => ({
  id: r.id,
  name: r.name,
  accountId: r.account_id,
  mode: r.mode as GatewayMode,
  allowedOrigins: parseOrigins(r.allowed_origins),
  createdAt: new Date(typeof r.created_at === 'string' ? r.created_at : r.created_at),
});

const toToken = (r: TokenRow): GatewayTokenRecord => ({
  id: r.id,
  gatewayId: r.gateway_id,
  name: r.name,
  createdAt: new Date(r.created_at),
});

function parseOrigins(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The {@link GatewayStore} over the gateway's database (`Database.sql`: PostgreSQL or the
 * embedded SQLite), in its dialect: creates its tables if missing (`ipfs_gateways`,
 * `ipfs_gateway_tokens`). Its pin questions read `ipfs_pins` (the IPFS route's pin records) and
 * `api_keys` of the same database.
 *
 * @example
 * const gateways = await createSqlGatewayStore(db.sql);
 * await gateways.insert({ id: 'gw_…', name: 'my-app', accountId, mode: 'restricted', allowedOrigins: [] });
 */
export async function createSqlGatewayStore(sql: SqlConnection): Promise<GatewayStore> {
  const { query } = sql;
  for (const statement of GATEWAY_SCHEMAS[sql.dialect]) await query(statement);
  const SQL = GATEWAY_SQL[sql.dialect];
  const oneGateway = async (text: string, params: unknown[]) => {
    const row = (await query<GatewayRow>(text, params)).rows[0];
    return row && toGateway(row);
  };
  const any = async (text: string, params: unknown[]) => (await query(text, params)).rows.length > 0;
  return {
    insert: (g) => oneGateway(SQL.insert, [g.id, g.name, g.accountId, g.mode, JSON.stringify(g.allowedOrigins)]),
    find: (id) => oneGateway(SQL.find, [id]),
    findByName: (name) => oneGateway(SQL.findByName, [name]),
    async list(accountId) {
      const rows =
        accountId === undefined
          ? (await query<GatewayRow>(SQL.list)).rows
          : (await query<GatewayRow>(SQL.listByAccount, [accountId])).rows;
      return rows.map(toGateway);
    },
    update: (id, patch) =>
      oneGateway(SQL.update, [
        id,
        patch.mode !== undefined,
        patch.mode ?? null,
        patch.allowedOrigins !== undefined,
        patch.allowedOrigins === undefined ? null : JSON.stringify(patch.allowedOrigins),
      ]),
    async remove(id) {
      const [, removed] = await sql.transaction([
        { sql: SQL.removeTokens, params: [id] },
        { sql: SQL.remove, params: [id] },
      ]);
      return (removed?.rows.length ?? 0) > 0;
    },
    async insertToken(t) {
      const row = (await query<TokenRow>(SQL.insertToken, [t.id, t.gatewayId, t.name, t.tokenHash])).rows[0];
      if (!row) throw new Error('token insert returned no row');
      return toToken(row);
    },
    async listTokens(gatewayId) {
      return (await query<TokenRow>(SQL.listTokens, [gatewayId])).rows.map(toToken);
    },
    removeToken: (gatewayId, tokenId) => any(SQL.removeToken, [gatewayId, tokenId]),
    hasToken: (gatewayId, tokenHash) => any(SQL.hasToken, [gatewayId, tokenHash]),
    pinnedByAccount(accountId, cids, recursive = false) {
      if (cids.length === 0) return Promise.resolve(false);
      const [a, b = a] = cids;
      return any(recursive ? SQL.pinnedRecursive : SQL.pinned, [accountId, a, b]);
    },
    async recursiveRoots(accountId, limit) {
      const rows = (await query<{ cid: string }>(SQL.recursiveRoots, [accountId, limit])).rows;
      return [...new Set(rows.map((r) => r.cid))];
    },
  };
}
