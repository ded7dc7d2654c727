import { ConfigError } from './ConfigError.js';
import type { EmbeddedSettings } from './types.js';

/** The shortest and longest block time accepted, in seconds. */
export const BLOCK_TIME_RANGE = { min: 0.1, max: 86_400 } as const;

/**
 * Parses a block time in seconds (`embedded.<chain>.blockTime`, `--block-time`): a number from
 * 0.1 to 86,400; with `text` (a command line) a decimal string such as `2` or `0.5`. Throws
 * {@link ConfigError} naming `at` otherwise.
 *
 * @example
 * parseBlockTime('2', '--block-time', true); // 2
 * parseBlockTime(0, 'embedded.anvil.blockTime'); // throws: must be a number of seconds from 0.1 to 86400
 */
export function parseBlockTime(raw: unknown, at: string, text = false): number {
  const v = text && typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < BLOCK_TIME_RANGE.min || v > BLOCK_TIME_RANGE.max) {
    throw new ConfigError(
      at,
      `must be a number of seconds from ${BLOCK_TIME_RANGE.min} to ${BLOCK_TIME_RANGE.max} (leave it out to mine on demand), got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/**
 * Parses the `embedded` section: settings of the backends nodegate starts itself, by backend name.
 * Today one per dev chain, `blockTime` (seconds): mine a block that often, empty or not; absent,
 * the chain mines on demand (one block per transaction, none without one). And `welcome` (default
 * false): new embedded chains and IPFS repos start with the README's welcome state.
 *
 * @example
 * parseEmbedded({ anvil: { blockTime: 2 } }, 'embedded');
 * // { welcome: false, anvil: { blockTime: 2 }, 'starknet-devchain': { blockTime: undefined } }
 */
export function parseEmbedded(raw: unknown, at: string): EmbeddedSettings {
  const section = raw === undefined ? {} : object(raw, at);
  only(section, at, ['welcome', 'anvil', 'starknet-devchain']);
  const chain = (name: 'anvil' | 'starknet-devchain') => {
    const here = `${at}.${name}`;
    const c = section[name] === undefined ? {} : object(section[name], here);
    only(c, here, ['blockTime']);
    return { blockTime: c.blockTime === undefined ? undefined : parseBlockTime(c.blockTime, `${here}.blockTime`) };
  };
  const welcome = section.welcome ?? false;
  if (typeof welcome !== 'boolean') throw new ConfigError(`${at}.welcome`, 'must be true or false');
  return { welcome, anvil: chain('anvil'), 'starknet-devchain': chain('starknet-devchain') };
}

function object(v: unknown, at: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(at, 'must be an object');
  return v as Record<string, unknown>;
}

function only(o: Record<string, unknown>, at: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new ConfigError(`${at}.${k}`, `unknown field (known: ${keys.join(', ')})`);
  }
}
