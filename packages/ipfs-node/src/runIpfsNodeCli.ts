import { rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { exitWithParent } from '@nodegate/backend-process';
import { startIpfsNode } from './startIpfsNode.js';

const USAGE = `usage: nodegate-ipfs-node --listen HOST:PORT --repo DIR [--ready-file FILE] [--reset-on-stream-error]
                          [--sharding-threshold BYTES]
  --listen HOST:PORT       where to serve the Kubo RPC API (port 0: a free port; default 127.0.0.1:5001)
  --repo DIR               repo directory (created if missing)
  --ready-file FILE        once serving, write {"api":"http://HOST:PORT"} to FILE
  --reset-on-stream-error  reset the connection when a stream fails after it started
  --sharding-threshold N   HAMT-shard directories whose links exceed N bytes (default 262144, as Kubo)
`;

/**
 * The `nodegate-ipfs-node` command (also behind `nodegate ipfs-node …`): starts the node, prints
 * where it serves, optionally writes a ready file, and stops cleanly on SIGINT/SIGTERM.
 * Resolves with the exit code once the node stopped.
 *
 * @example
 * ```ts
 * process.exitCode = await runIpfsNodeCli(['--listen', '127.0.0.1:0', '--repo', './repo']);
 * ```
 */
export async function runIpfsNodeCli(argv: readonly string[]): Promise<number> {
  let values: {
    listen?: string;
    repo?: string;
    'ready-file'?: string;
    'reset-on-stream-error'?: boolean;
    'sharding-threshold'?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        listen: { type: 'string' },
        repo: { type: 'string' },
        'ready-file': { type: 'string' },
        'reset-on-stream-error': { type: 'boolean' },
        'sharding-threshold': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.repo === undefined) {
    process.stderr.write(`--repo is required\n${USAGE}`);
    return 2;
  }
  const listen = values.listen ?? '127.0.0.1:5001';
  const m = /^(.*):(\d+)$/.exec(listen);
  if (m === null) {
    process.stderr.write(`--listen must be HOST:PORT, got "${listen}"\n`);
    return 2;
  }
  const threshold = values['sharding-threshold'];
  if (threshold !== undefined && !/^[1-9]\d*$/.test(threshold)) {
    process.stderr.write(`--sharding-threshold must be a positive number of bytes, got "${threshold}"\n`);
    return 2;
  }
  const host = m[1]!.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = Number(m[2]);
  // The unixfs exporter can reject a promise nobody awaits when a block is missing; such a
  // failure belongs to the request that caused it, not to the process.
  const onUnhandled = (reason: unknown) => {
    process.stderr.write(`ipfs-node: unhandled rejection: ${(reason as Error)?.message ?? String(reason)}\n`);
  };
  process.on('unhandledRejection', onUnhandled);
  const node = await startIpfsNode({
    host,
    port,
    repo: values.repo,
    resetOnStreamError: values['reset-on-stream-error'] === true,
    ...(threshold === undefined ? {} : { shardingThresholdBytes: Number(threshold) }),
    onInternalError: (err) =>
      process.stderr.write(`ipfs-node: internal error: ${(err as Error)?.stack ?? String(err)}\n`),
  });
  process.stdout.write(`nodegate ipfs-node serving the Kubo RPC API at ${node.apiUrl}/api/v0/ (repo ${values.repo})\n`);
  const readyFile = values['ready-file'];
  if (readyFile !== undefined) {
    await writeFile(`${readyFile}.tmp`, `${JSON.stringify({ api: node.apiUrl })}\n`);
    await rename(`${readyFile}.tmp`, readyFile);
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // started by a gateway: stop when it is gone, even if it was killed without stopping us
    exitWithParent(stop);
  });
  await node.close();
  process.off('unhandledRejection', onUnhandled);
  return 0;
}
