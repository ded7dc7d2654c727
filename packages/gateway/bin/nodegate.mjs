#!/usr/bin/env node
// The `nodegate` command as npm links it (`npx nodegate …` in a clone, `nodegate …` when installed):
// it runs the built CLI (dist/, made by `npm start` or `npm run build`) on the Node.js runtime the
// project pins (npm puts node_modules/.bin, where that runtime is, first on PATH).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `nodegate needs Node.js 24 (this is ${process.version}); in a clone, run it as \`npx nodegate …\` or through npm scripts, which use the pinned runtime in node_modules/.bin\n`,
  );
  process.exit(1);
}
try {
  await import('../dist/cli/main.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('nodegate is not built yet: run `npm start` (or `npm run build`) in the clone first\n');
    process.exit(1);
  }
  throw err;
}
