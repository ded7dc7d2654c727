#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runIpfsNodeCli } from '@nodegate/ipfs-node';
import { ConfigError } from '../config/ConfigError.js';
import { loadConfigFile } from '../config/loadConfigFile.js';
import { LOG_LEVELS, type LogLevel } from '../log/createLogger.js';
import { runKeys, UsageError } from './runKeys.js';
import { runStart } from './runStart.js';

const USAGE = `nodegate: one endpoint and one API key for Ethereum, Starknet and IPFS

usage:
  nodegate start [--config FILE] [--listen HOST:PORT] [--data-dir DIR] [--ready-file FILE] [--log-level LEVEL]
  nodegate keys create [--plan NAME] [--name TEXT] [--account ID] [--json]
  nodegate keys list [--account ID] [--json]
  nodegate keys show KEY [--json]
  nodegate keys set KEY [--name TEXT] [--plan NAME] [--allowed-origins A,B] [--allowed-user-agents A,B]
      [--allowed-contracts A,B] [--allowed-methods A,B] [--require-secret true|false] [--enable-failover true|false]
      [--jwt-key NAME=PEMFILE]... [--require-jwt true|false] [--credits-per-second N] [--credits-per-day N]
      (an empty value clears a list, a limit or the plan override)
  nodegate keys revoke KEY
      keys options: [--data-dir DIR | --config FILE] [--admin-url URL] (token: NODEGATE_ADMIN_TOKEN or <dataDir>/admin-token)
  nodegate config check FILE
  nodegate ipfs-node [--listen HOST:PORT] --repo DIR [--ready-file FILE] [--reset-on-stream-error]

Without --config, start runs the embedded defaults (anvil for eth-devnet) on 127.0.0.1:8550.`;

function parseLogLevel(v: string | undefined): LogLevel | undefined {
  if (v === undefined) return undefined;
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  // the embedded IPFS node on its own (Kubo RPC API); it parses its own flags
  if (argv[0] === 'ipfs-node') return runIpfsNodeCli(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      listen: { type: 'string' },
      'data-dir': { type: 'string' },
      'ready-file': { type: 'string' },
      'log-level': { type: 'string' },
      plan: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
      account: { type: 'string' },
      'admin-url': { type: 'string' },
      'allowed-origins': { type: 'string' },
      'allowed-user-agents': { type: 'string' },
      'allowed-contracts': { type: 'string' },
      'allowed-methods': { type: 'string' },
      'require-secret': { type: 'string' },
      'enable-failover': { type: 'string' },
      'jwt-key': { type: 'string', multiple: true },
      'require-jwt': { type: 'string' },
      'credits-per-second': { type: 'string' },
      'credits-per-day': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return command || values.help ? 0 : 2;
  }
  switch (command) {
    case 'start':
      await runStart(
        {
          config: values.config,
          listen: values.listen,
          dataDir: values['data-dir'],
          readyFile: values['ready-file'],
          logLevel: parseLogLevel(values['log-level']),
        },
        out,
      );
      return -1; // keep running
    case 'keys':
      try {
        return await runKeys(
          sub ?? '',
          rest,
          {
            config: values.config,
            dataDir: values['data-dir'],
            adminUrl: values['admin-url'],
            adminToken: process.env.NODEGATE_ADMIN_TOKEN,
            account: values.account,
            plan: values.plan,
            name: values.name,
            json: values.json,
            allowedOrigins: values['allowed-origins'],
            allowedUserAgents: values['allowed-user-agents'],
            allowedContracts: values['allowed-contracts'],
            allowedMethods: values['allowed-methods'],
            requireSecret: values['require-secret'],
            enableFailover: values['enable-failover'],
            jwtKey: values['jwt-key'],
            requireJwt: values['require-jwt'],
            creditsPerSecond: values['credits-per-second'],
            creditsPerDay: values['credits-per-day'],
          },
          out,
        );
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        err(e.message);
        return 2;
      }
    case 'config':
      if (sub !== 'check' || !rest[0]) {
        err('usage: nodegate config check FILE');
        return 2;
      }
      await loadConfigFile(rest[0]);
      out(`${rest[0]}: OK`);
      return 0;
    default:
      err(`unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    if (e instanceof ConfigError) err(`config error: ${e.message}`);
    else err(`nodegate: ${(e as Error).message}`);
    process.exit(1);
  },
);
