import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';

/**
 * The fixtures interface-ipfs-core's tests read but its npm package does not ship, kept in
 * `../shared` beside the project (never copied into it): see ../shared/fixtures/README.md.
 */
export const SHARED_FIXTURES = join(
  import.meta.dirname,
  '../../../../../../shared/fixtures/interface-ipfs-core-0.158.1/fixtures',
);

let installed = false;

/**
 * Points interface-ipfs-core's `aegir/fixtures` and `aegir/resolve` (which look for
 * `test/fixtures/…` inside the package) at {@link SHARED_FIXTURES}, with a module resolve hook
 * that applies to imports made from interface-ipfs-core's files only. Throws when the fixtures
 * are not there (the run would otherwise fail test by test).
 *
 * @example
 * useSharedFixtures();
 * const { root } = await import('interface-ipfs-core');
 */
export function useSharedFixtures(): void {
  if (installed) return;
  if (!existsSync(join(SHARED_FIXTURES, 'test-folder'))) {
    throw new Error(`interface-ipfs-core fixtures not found at ${SHARED_FIXTURES} (see ../shared/fixtures/README.md)`);
  }
  const root = JSON.stringify(SHARED_FIXTURES);
  const resolveSource = `import { join } from 'node:path';
export default function resolve(filePath, module = '') {
  if (module !== 'interface-ipfs-core' || !filePath.startsWith('test/fixtures')) {
    throw new Error('conformance fixtures: unexpected fixture ' + module + ' ' + filePath);
  }
  return join(${root}, filePath.slice('test/fixtures'.length));
}`;
  const fixturesSource = `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export default function loadFixture(filePath, module = '') {
  if (module !== 'interface-ipfs-core' || !filePath.startsWith('test/fixtures')) {
    throw new Error('conformance fixtures: unexpected fixture ' + module + ' ' + filePath);
  }
  return readFileSync(join(${root}, filePath.slice('test/fixtures'.length)));
}`;
  const redirect: Record<string, string> = {
    'aegir/resolve': `data:text/javascript,${encodeURIComponent(resolveSource)}`,
    'aegir/fixtures': `data:text/javascript,${encodeURIComponent(fixturesSource)}`,
  };
  registerHooks({
    resolve(specifier, context, next) {
      const target = redirect[specifier];
      if (target !== undefined && context.parentURL?.includes('/interface-ipfs-core/') === true) {
        return { url: target, shortCircuit: true };
      }
      return next(specifier, context);
    },
  });
  installed = true;
}
