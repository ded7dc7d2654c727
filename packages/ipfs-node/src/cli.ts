#!/usr/bin/env node
import { runIpfsNodeCli } from './runIpfsNodeCli.js';

runIpfsNodeCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`nodegate-ipfs-node: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
