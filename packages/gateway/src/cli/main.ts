#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/ConfigError.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../log/createLogger.js';
import { type OptionValues, parseCommandLine } from './parseCommandLine.js';
import { UsageError } from './UsageError.js';

// `nodegate …` (packages/gateway/bin/nodegate.mjs, linked by npm, runs this file): each command
// takes its own options (cli/commandTable.ts), `--help` lists them. A command's code is loaded
// only when it runs, so the help and a refused command line answer at once.

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function oneOf<T extends string>(v: OptionValues[string], flag: string, values: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`nodegate start: ${flag} must be one of ${values.join(', ')}`);
}

const text = (v: OptionValues[string]) => (typeof v === 'string' ? v : undefined);
const list = (v: OptionValues[string]) => (Array.isArray(v) ? v : undefined);

async function main(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv);
  switch (line.kind) {
    case 'help':
      out(line.text);
      return 0;
    case 'version': {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      };
      out(`nodegate ${pkg.version} (Node.js ${process.version})`);
      return 0;
    }
    case 'delegate':
      // the embedded IPFS node on its own (Kubo RPC API); it parses its own flags
      return (await import('@nodegate/ipfs-node')).runIpfsNodeCli(line.argv);
    case 'run':
      break;
  }
  const { command, values: v, args } = line;
  const access = {
    config: text(v.config),
    dataDir: text(v['data-dir']),
    adminUrl: text(v['admin-url']),
    adminToken: process.env.NODEGATE_ADMIN_TOKEN,
  };
  const [group, sub = ''] = command.words;
  switch (group) {
    case 'start': {
      const { runStart } = await import('./runStart.js');
      await runStart(
        {
          config: text(v.config),
          listen: text(v.listen),
          dataDir: text(v['data-dir']),
          readyFile: text(v['ready-file']),
          logLevel: oneOf<LogLevel>(v['log-level'], '--log-level', LOG_LEVELS),
          logFormat: oneOf<LogFormat>(v['log-format'], '--log-format', LOG_FORMATS),
          tlsCert: text(v['tls-cert']),
          tlsKey: text(v['tls-key']),
          blockTime: text(v['block-time']),
          workers: text(v.workers),
        },
        out,
      );
      return -1; // keep running
    }
    case 'keys': {
      const { runKeys } = await import('./runKeys.js');
      return runKeys(
        sub,
        [...args],
        {
          ...access,
          account: text(v.account),
          plan: text(v.plan),
          name: text(v.name),
          json: v.json === true,
          allowedOrigins: text(v['allowed-origins']),
          allowedUserAgents: text(v['allowed-user-agents']),
          allowedContracts: text(v['allowed-contracts']),
          allowedMethods: text(v['allowed-methods']),
          requireSecret: text(v['require-secret']),
          enableFailover: text(v['enable-failover']),
          jwtKey: list(v['jwt-key']),
          requireJwt: text(v['require-jwt']),
          creditsPerSecond: text(v['credits-per-second']),
          creditsPerDay: text(v['credits-per-day']),
        },
        out,
      );
    }
    case 'gateways': {
      const { runGateways } = await import('../ipfsGateway/cli/runGateways.js');
      return runGateways(
        sub,
        [...args],
        {
          ...access,
          account: text(v.account),
          mode: text(v.mode),
          allowedOrigins: text(v['allowed-origins']),
          name: text(v.name),
          json: v.json === true,
        },
        out,
      );
    }
    case 'admin': {
      const { runAdmin } = await import('./runAdmin.js');
      return runAdmin(
        sub as 'sign-in-link' | 'set-password',
        { ...access, json: v.json === true, passwordFile: text(v['password-file']) },
        { stdin: process.stdin, stderr: process.stderr },
        out,
      );
    }
    case 'config': {
      const { loadConfigFile } = await import('../config/loadConfigFile.js');
      await loadConfigFile(args[0]!);
      out(`${args[0]}: OK`);
      return 0;
    }
    default:
      throw new UsageError(`nodegate: no handler for "${command.words.join(' ')}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      err(e.message);
      process.exit(2);
    }
    if (e instanceof ConfigError) err(`config error: ${e.message}`);
    else err(`nodegate: ${(e as Error).message}`);
    process.exit(1);
  },
);
