/**
 * The browser demo dApp (`browser-demo/`) is type-checked: `tsc --noEmit -p browser-demo/tsconfig.json`. It is built
 * by Vite (which strips types without checking them) and not part of `tsc -b`, so this is where a type error in the
 * page, or an API of the connector it uses that changed, shows up.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(PKG, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');

describe('browser-demo', () => {
  it('type-checks (tsc --noEmit -p browser-demo/tsconfig.json)', () => {
    const r = spawnSync(
      process.execPath,
      [TSC, '--noEmit', '--pretty', 'false', '-p', join(PKG, 'browser-demo', 'tsconfig.json')],
      {
        cwd: PKG,
        encoding: 'utf8',
      },
    );
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);
});
