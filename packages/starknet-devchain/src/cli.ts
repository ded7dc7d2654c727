#!/usr/bin/env node
/**
 * starknet-devchain [--listen HOST:PORT] [--data-dir DIR] [--ready-file FILE] [--seed N]
 *                   [--accounts N] [--chain-id SN_SEPOLIA|SN_MAIN|0x…] [--block-interval MS] [--mine-on-demand]
 *                   [--welcome] [--fork-network URL [--fork-block N]]
 */
import { renameSync, writeFileSync } from 'node:fs';
import { exitWithParent } from '@nodegate/backend-process';
import type { DevchainOptions, RunningDevchain } from './startDevchain.js';

function usage(message?: string): never {
  if (message) process.stderr.write(`starknet-devchain: ${message}\n`);
  process.stderr.write(
    'usage: starknet-devchain [--listen HOST:PORT] [--data-dir DIR] [--ready-file FILE] [--seed N] [--accounts N] [--chain-id SN_SEPOLIA|SN_MAIN|0x…] [--block-interval MS] [--mine-on-demand] [--welcome] [--fork-network URL [--fork-block N]]\n',
  );
  process.exit(2);
}

function parseArgs(argv: string[]): { options: DevchainOptions; readyFile?: string } {
  const options: DevchainOptions = { host: '127.0.0.1', port: 5050 };
  let readyFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`${flag} needs a value`);
      return v;
    };
    const int = (): number => {
      const v = Number(value());
      if (!Number.isSafeInteger(v) || v < 0) usage(`${flag} needs a non-negative integer`);
      return v;
    };
    switch (flag) {
      case '--listen': {
        const v = value();
        const idx = v.lastIndexOf(':');
        if (idx <= 0) usage('--listen expects HOST:PORT');
        options.host = v.slice(0, idx).replace(/^\[|\]$/g, '');
        options.port = Number(v.slice(idx + 1));
        if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) usage('invalid port');
        break;
      }
      case '--data-dir':
        options.dataDir = value();
        break;
      case '--ready-file':
        readyFile = value();
        break;
      case '--seed':
        options.seed = int();
        break;
      case '--accounts':
        options.accounts = int();
        break;
      case '--chain-id':
        options.chainId = value();
        break;
      case '--block-interval':
        options.blockIntervalMs = int();
        break;
      case '--mine-on-demand':
        options.mineOnDemand = true;
        break;
      case '--welcome':
        options.welcome = true;
        break;
      case '--fork-network':
        options.forkNetwork = value();
        break;
      case '--fork-block':
        options.forkBlock = int();
        break;
      case '--help':
      case '-h':
        usage();
        break;
      default:
        usage(`unknown argument ${arg}`);
    }
  }
  if (options.forkBlock !== undefined && options.forkNetwork === undefined) usage('--fork-block needs --fork-network');
  return readyFile === undefined ? { options } : { options, readyFile };
}

const { options, readyFile } = parseArgs(process.argv.slice(2));

// Signal handlers first, so that a stop request during startup is never lost.
let dc: RunningDevchain | undefined;
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  if (!dc) return; // startup finishes, then closes (see below)
  dc.close().then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(`starknet-devchain: error while stopping on ${signal}: ${String(e)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// started by a gateway: stop when it is gone, even if it was killed without stopping us
exitWithParent(() => stop('the gateway exited'));

// Loaded after the handlers are in place: loading the chain's modules takes a while on a busy host.
const { startDevchain } = await import('./startDevchain.js');
try {
  dc = await startDevchain(options);
} catch (err) {
  process.stderr.write(`starknet-devchain: ${(err as Error).message}\n`);
  process.exit(1);
}
if (stopping) {
  await dc.close();
  process.exit(0);
}
process.stdout.write(`starknet-devchain listening on ${dc.rpcUrl} (chain id ${dc.chainId})\n`);
if (readyFile) {
  // Atomic: readers polling for the file never see it half-written.
  const tmp = `${readyFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ rpc: dc.rpcUrl, ws: dc.wsUrl, chainId: dc.chainId }));
  renameSync(tmp, readyFile);
}
