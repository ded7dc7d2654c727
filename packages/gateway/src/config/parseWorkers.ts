import { ConfigError } from './ConfigError.js';

/** The most gateway processes one start runs (a typo's `1000` should fail, not fork a thousand). */
export const MAX_WORKERS = 256;

/**
 * Reads `workers` (the config's, or `nodegate start --workers`): `auto`, or a whole number from 1
 * to {@link MAX_WORKERS} (a number's text too, as the command line gives it). `hasRedis` says
 * whether the config shares state through Redis: without it, more than one worker is refused,
 * since limits, eth filters, sign-in counts and key changes would be counted in each process
 * apart (see `src/cluster/` for why the primary process does not hold them instead).
 *
 * @example
 * parseWorkers('auto', 'workers', false) // 'auto'
 * parseWorkers('4', '--workers', true) // 4
 * parseWorkers(2, 'workers', false) // throws ConfigError('workers', 'more than one worker needs redis …')
 */
export function parseWorkers(raw: unknown, at: string, hasRedis: boolean): number | 'auto' {
  if (raw === 'auto') return 'auto';
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new ConfigError(at, `must be auto or a whole number from 1 to ${MAX_WORKERS}`);
  }
  if (n > 1 && !hasRedis) {
    throw new ConfigError(
      at,
      'more than one worker needs redis (limits, eth filters, sign-in counts and key changes are shared through it); ' +
        'without redis the gateway runs one process',
    );
  }
  return n;
}
