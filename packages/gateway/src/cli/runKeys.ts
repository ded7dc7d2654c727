import { readFile } from 'node:fs/promises';
import { AdminApiError } from '../admin/AdminApiError.js';
import type { AdminClient, KeyChange, KeyView } from '../admin/adminClient.js';
import { validateKeySettings } from '../admin/validateKeySettings.js';
import type { KeySettings } from '../keys/KeySettings.js';
import { UsageError } from './UsageError.js';
import { type AdminAccessFlags, withAdminClient } from './withAdminClient.js';

export { UsageError } from './UsageError.js';

/** Options of `nodegate keys …`. */
export interface KeysFlags extends AdminAccessFlags {
  account?: string | undefined;
  plan?: string | undefined;
  name?: string | undefined;
  json?: boolean | undefined;
  allowedOrigins?: string | undefined;
  allowedUserAgents?: string | undefined;
  allowedContracts?: string | undefined;
  allowedMethods?: string | undefined;
  requireSecret?: string | undefined;
  enableFailover?: string | undefined;
  jwtKey?: string[] | undefined;
  requireJwt?: string | undefined;
  creditsPerSecond?: string | undefined;
  creditsPerDay?: string | undefined;
}

/** The `keys` subcommands. */
export const KEY_COMMANDS = ['create', 'list', 'revoke', 'set', 'show'] as const;

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function bool(v: string, flag: string): boolean {
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new Error(`${flag} must be true or false`);
}

function credits(v: string, flag: string): number | null {
  if (v === '') return null;
  if (!/^\d+$/.test(v)) throw new Error(`${flag} must be a whole number (or empty to use the plan's)`);
  return Number(v);
}

/** The change `keys set` asks for; settings checked here first with the API's own rules. */
export async function keyChangeFromFlags(flags: KeysFlags): Promise<KeyChange> {
  const s: Record<string, unknown> = {};
  if (flags.allowedOrigins !== undefined) s.allowedOrigins = list(flags.allowedOrigins);
  if (flags.allowedUserAgents !== undefined) s.allowedUserAgents = list(flags.allowedUserAgents);
  if (flags.allowedContracts !== undefined) s.allowedContracts = list(flags.allowedContracts);
  if (flags.allowedMethods !== undefined) s.allowedMethods = list(flags.allowedMethods);
  if (flags.requireSecret !== undefined) s.requireSecret = bool(flags.requireSecret, '--require-secret');
  if (flags.requireJwt !== undefined) s.requireJwt = bool(flags.requireJwt, '--require-jwt');
  if (flags.enableFailover !== undefined) s.enableFailover = bool(flags.enableFailover, '--enable-failover');
  if (flags.creditsPerSecond !== undefined)
    s.creditsPerSecond = credits(flags.creditsPerSecond, '--credits-per-second');
  if (flags.creditsPerDay !== undefined) s.creditsPerDay = credits(flags.creditsPerDay, '--credits-per-day');
  if (flags.jwtKey !== undefined) {
    const given = flags.jwtKey.filter((v) => v !== '');
    s.jwtKeys = await Promise.all(
      given.map(async (v) => {
        const eq = v.indexOf('=');
        if (eq <= 0) throw new Error('--jwt-key must be NAME=PEMFILE');
        const file = v.slice(eq + 1);
        const pem = await readFile(file, 'utf8').catch(() => {
          throw new Error(`--jwt-key ${v.slice(0, eq)}: cannot read ${file}`);
        });
        return { name: v.slice(0, eq), pem };
      }),
    );
  }
  const change: KeyChange = {};
  if (Object.keys(s).length > 0) {
    const check = validateKeySettings(s);
    if (!check.ok) throw new Error(check.problem.message);
    change.settings = check.settings;
  }
  if (flags.plan !== undefined) change.plan = flags.plan === '' ? null : flags.plan;
  if (flags.name !== undefined) change.name = flags.name;
  return change;
}

function showKey(k: KeyView, out: (line: string) => void): void {
  const s: KeySettings = k.settings;
  const listed = (v: readonly string[]) => (v.length ? v.join(', ') : '(any)');
  out(`key:                 ${k.key}`);
  out(`name:                ${k.name}`);
  out(`account:             ${k.accountId}`);
  out(`plan:                ${k.effectivePlan}${k.plan === null ? ' (the account plan)' : ' (key override)'}`);
  out(`status:              ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}${k.dev ? ' (development key)' : ''}`);
  out(`created:             ${k.createdAt}`);
  out(`allowed origins:     ${listed(s.allowedOrigins)}`);
  out(`allowed user agents: ${listed(s.allowedUserAgents)}`);
  out(`allowed contracts:   ${listed(s.allowedContracts)}`);
  out(`allowed methods:     ${listed(s.allowedMethods)}`);
  out(`require secret:      ${s.requireSecret}`);
  out(`JWT keys:            ${s.jwtKeys.length ? s.jwtKeys.map((j) => j.name).join(', ') : '(none)'}`);
  out(`require JWT:         ${s.requireJwt}`);
  out(`credits per second:  ${s.creditsPerSecond ?? '(plan)'}`);
  out(`credits per day:     ${s.creditsPerDay ?? '(plan)'}`);
  out(`failover protection: ${s.enableFailover ? 'every request (if the plan has it)' : 'when a request asks'}`);
}

async function runWith(
  client: AdminClient,
  sub: (typeof KEY_COMMANDS)[number],
  key: string | undefined,
  flags: KeysFlags,
  out: (line: string) => void,
  change: KeyChange,
): Promise<number> {
  switch (sub) {
    case 'create': {
      const k = await client.createKey({
        ...(flags.account ? { accountId: flags.account } : {}),
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        ...(flags.plan ? { plan: flags.plan } : {}),
      });
      if (flags.json) out(JSON.stringify(k));
      else {
        out(`key:    ${k.key}`);
        out(`secret: ${k.secret}   (shown once: store it now)`);
        out(`plan:   ${k.effectivePlan}${k.name ? `   name: ${k.name}` : ''}`);
      }
      return 0;
    }
    case 'list': {
      const keys = await client.listKeys(flags.account ? { accountId: flags.account } : {});
      if (flags.json) out(JSON.stringify(keys));
      else if (keys.length === 0) out('no keys');
      else {
        for (const k of keys) {
          out(
            `${k.key}  ${k.revokedAt ? 'revoked' : 'active '}  ${k.effectivePlan.padEnd(9)} ${k.createdAt}  ${k.name}`,
          );
        }
      }
      return 0;
    }
    case 'revoke': {
      let revoked = true;
      try {
        await client.revokeKey(key!);
      } catch (err) {
        if (!(err instanceof AdminApiError) || (err.status !== 404 && err.status !== 409)) throw err;
        revoked = false;
      }
      if (flags.json) out(JSON.stringify({ key, revoked }));
      else out(revoked ? 'revoked' : 'no active key with that id');
      return revoked ? 0 : 1;
    }
    case 'set': {
      const k = await client.updateKey(key!, change);
      if (flags.json) out(JSON.stringify(k));
      else showKey(k, out);
      return 0;
    }
    case 'show': {
      const k = await client.getKey(key!);
      if (flags.json) out(JSON.stringify(k));
      else showKey(k, out);
      return 0;
    }
  }
}

/**
 * `nodegate keys create|list|revoke|set|show`, over the admin REST API with the admin token:
 * the running gateway's (from `--admin-url` or `<dataDir>/admin.json`), or, when none runs on
 * the data directory, the same API served in-process over the database ({@link withAdminClient}).
 *
 * @example
 * await runKeys('set', [key], { dataDir, allowedOrigins: 'https://app.example.com' }, console.log);
 */
export async function runKeys(
  sub: string,
  args: string[],
  flags: KeysFlags,
  out: (line: string) => void,
): Promise<number> {
  if (!(KEY_COMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`usage: nodegate keys ${KEY_COMMANDS.join('|')}`);
  const command = sub as (typeof KEY_COMMANDS)[number];
  const key = args[0];
  if (command !== 'create' && command !== 'list' && !key) throw new UsageError(`usage: nodegate keys ${command} KEY`);
  // checked before anything is opened or sent
  const change = command === 'set' ? await keyChangeFromFlags(flags) : {};
  if (command === 'set' && Object.keys(change).length === 0) {
    throw new UsageError('nodegate keys set: give at least one setting (nodegate keys set --help lists them)');
  }
  return withAdminClient(flags, (client) => runWith(client, command, key, flags, out, change));
}
