import { availableParallelism } from 'node:os';
import type { GatewayConfig } from '../config/types.js';

/**
 * How many gateway processes `nodegate start` runs: the config's `workers` (or `--workers`), with
 * `auto` made concrete: one per core (`os.availableParallelism()`) when the config has PostgreSQL
 * and Redis, as several instances would run; otherwise 1. The embedded database (SQLite in WAL
 * mode) can be opened by several processes, so with Redis an explicit `workers: N` runs on it
 * too, but `auto` keeps it at one: its writes take turns on one file lock.
 *
 * @example
 * resolveWorkerCount(postgresAndRedisConfig) // 2 on a 2-core machine
 * resolveWorkerCount(embeddedConfig()) // 1
 */
export function resolveWorkerCount(
  config: Pick<GatewayConfig, 'workers' | 'database' | 'redis'>,
  cores: number = availableParallelism(),
): number {
  if (config.workers !== 'auto') return config.workers;
  return config.database.kind === 'postgres' && config.redis !== undefined ? Math.max(1, cores) : 1;
}
