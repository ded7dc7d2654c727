import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the dashboard's build is: `dist/` beside `@nodegate/dashboard/package.json` (the npm
 * workspace link), else the repository's `packages/dashboard/dist`.
 *
 * @example
 * await registerDashboard(app, { distDir: locateDashboardDist(), config });
 */
export function locateDashboardDist(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@nodegate/dashboard/package.json')), 'dist');
  } catch {
    return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dashboard', 'dist');
  }
}
