// `aegir/resolve`: the absolute path of a file named relative to the working directory, its
// node_modules, or a package (`resolve('test/fixtures/x', 'interface-ipfs-core')`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';

const require = createRequire(import.meta.url);

export default function resolve(filePath, module = '') {
  const candidates = [join(process.cwd(), module, filePath), join(process.cwd(), 'node_modules', module, filePath)];
  if (module) {
    try {
      // the package's own folder, wherever npm put it
      const pkg = dirname(require.resolve(`${module}/package.json`));
      candidates.push(join(pkg, filePath));
    } catch {
      // a package without an exported package.json: the node_modules walk below finds it
    }
    for (let dir = process.cwd(); ; dir = dirname(dir)) {
      candidates.push(join(dir, 'node_modules', module, filePath));
      if (dir === parse(dir).root) break;
    }
  }
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(`aegir/resolve: ${join(module, filePath)} not found (looked in ${candidates.length} places)`);
  return found;
}
