import { UsageError } from '../../cli/UsageError.js';
import { type AdminAccessFlags, withAdminClient } from '../../cli/withAdminClient.js';
import type { AdminClient } from '../../admin/adminClient.js';
import { OPERATOR_ACCOUNT_ID } from '../../store/sql.js';
import type { GatewayView } from '../admin/gatewaySchemas.js';

/** Options of `nodegate gateways …`. */
export interface GatewaysFlags extends AdminAccessFlags {
  account?: string | undefined;
  mode?: string | undefined;
  allowedOrigins?: string | undefined;
  name?: string | undefined;
  json?: boolean | undefined;
}

/** The `gateways` subcommands. */
export const GATEWAY_COMMANDS = [
  'list',
  'create',
  'show',
  'set',
  'delete',
  'tokens',
  'add-token',
  'revoke-token',
] as const;
type GatewayCommand = (typeof GATEWAY_COMMANDS)[number];

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function mode(v: string | undefined): 'restricted' | 'open' | undefined {
  if (v === undefined) return undefined;
  if (v === 'restricted' || v === 'open') return v;
  throw new UsageError('--mode must be restricted or open');
}

function show(g: GatewayView, out: (line: string) => void): void {
  const bytes = (n: number | null) => (n === null ? '(unbounded)' : `${n} bytes`);
  out(`gateway:          ${g.name}  (${g.id})`);
  out(`account:          ${g.accountId}`);
  out(
    `mode:             ${g.mode}${g.mode === 'restricted' ? ' (what keys of the account pinned; tokens and allowed origins open it)' : ''}`,
  );
  out(`allowed origins:  ${g.allowedOrigins.length ? g.allowedOrigins.join(', ') : '(none)'}`);
  out(`path form:        ${g.urls.path}/ipfs/<cid>`);
  if (g.urls.host) out(`host form:        ${g.urls.host}/ipfs/<cid>`);
  if (g.urls.subdomain) out(`subdomain form:   ${g.urls.subdomain}/`);
  out(
    `bandwidth today:  ${g.bandwidthToday === null ? '(not served here)' : `${g.bandwidthToday} bytes`} of ${bytes(g.bandwidthPerDay)} a day (the account's gateways together)`,
  );
  out(`created:          ${g.createdAt}`);
}

/** The gateway a command names, by name or id, among those the admin token sees. */
async function find(client: AdminClient, which: string): Promise<GatewayView> {
  const all = await client.request<GatewayView[]>('GET', '/gateways');
  const g = all.find((x) => x.name === which || x.id === which);
  if (!g) throw new UsageError(`no gateway named "${which}" (nodegate gateways list shows them)`);
  return g;
}

async function runWith(
  client: AdminClient,
  sub: GatewayCommand,
  args: readonly string[],
  flags: GatewaysFlags,
  out: (line: string) => void,
): Promise<number> {
  const print = (value: unknown, text: () => void) => (flags.json ? out(JSON.stringify(value)) : text());
  const enc = encodeURIComponent;
  switch (sub) {
    case 'list': {
      const path = flags.account ? `/accounts/${enc(flags.account)}/gateways` : '/gateways';
      const all = await client.request<GatewayView[]>('GET', path);
      print(all, () => {
        if (all.length === 0) out('no gateways');
        for (const g of all) out(`${g.name.padEnd(20)} ${g.mode.padEnd(10)} ${g.accountId.padEnd(24)} ${g.urls.path}`);
      });
      return 0;
    }
    case 'create': {
      const g = await client.request<GatewayView>(
        'POST',
        `/accounts/${enc(flags.account ?? OPERATOR_ACCOUNT_ID)}/gateways`,
        {
          name: args[0],
          ...(flags.mode !== undefined ? { mode: mode(flags.mode) } : {}),
          ...(flags.allowedOrigins !== undefined ? { allowedOrigins: list(flags.allowedOrigins) } : {}),
        },
      );
      print(g, () => show(g, out));
      return 0;
    }
    case 'show': {
      const g = await find(client, args[0]!);
      print(g, () => show(g, out));
      return 0;
    }
    case 'set': {
      const change = {
        ...(flags.mode !== undefined ? { mode: mode(flags.mode) } : {}),
        ...(flags.allowedOrigins !== undefined ? { allowedOrigins: list(flags.allowedOrigins) } : {}),
      };
      if (Object.keys(change).length === 0) {
        throw new UsageError('nodegate gateways set: give --mode and/or --allowed-origins');
      }
      const g = await client.request<GatewayView>('PATCH', `/gateways/${(await find(client, args[0]!)).id}`, change);
      print(g, () => show(g, out));
      return 0;
    }
    case 'delete': {
      const g = await client.request<GatewayView>('DELETE', `/gateways/${(await find(client, args[0]!)).id}`);
      print({ deleted: g.name }, () => out(`deleted ${g.name}`));
      return 0;
    }
    case 'tokens': {
      const g = await find(client, args[0]!);
      const tokens = await client.request<Array<{ id: string; name: string; createdAt: string }>>(
        'GET',
        `/gateways/${g.id}/tokens`,
      );
      print(tokens, () => {
        if (tokens.length === 0) out('no tokens');
        for (const t of tokens) out(`${t.id}  ${t.createdAt}  ${t.name}`);
      });
      return 0;
    }
    case 'add-token': {
      if (!flags.name) throw new UsageError('nodegate gateways add-token: give --name (what the token is for)');
      const g = await find(client, args[0]!);
      const t = await client.request<{ id: string; name: string; token: string }>('POST', `/gateways/${g.id}/tokens`, {
        name: flags.name,
      });
      print(t, () => {
        out(`token:  ${t.token}   (shown once: store it now)`);
        out(`id:     ${t.id}   name: ${t.name}`);
        out(`use:    ${g.urls.path}/ipfs/<cid>?token=${t.token}  (or the header X-Nodegate-Gateway-Token)`);
      });
      return 0;
    }
    case 'revoke-token': {
      const g = await find(client, args[0]!);
      await client.request('DELETE', `/gateways/${g.id}/tokens/${enc(args[1]!)}`);
      print({ revoked: args[1] }, () => out('revoked'));
      return 0;
    }
  }
}

/**
 * `nodegate gateways list|create|show|set|delete|tokens|add-token|revoke-token`: dedicated IPFS
 * gateways over the admin REST API with the admin token (the running gateway's, else served
 * in-process over the database), as `nodegate keys` does. A gateway is named by its name or id.
 *
 * @example
 * await runGateways('create', ['my-app'], { mode: 'restricted' }, console.log);
 */
export async function runGateways(
  sub: string,
  args: string[],
  flags: GatewaysFlags,
  out: (line: string) => void,
): Promise<number> {
  if (!(GATEWAY_COMMANDS as readonly string[]).includes(sub)) {
    throw new UsageError(`usage: nodegate gateways ${GATEWAY_COMMANDS.join('|')}`);
  }
  mode(flags.mode);
  return withAdminClient(flags, (client) => runWith(client, sub as GatewayCommand, args, flags, out));
}
