import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './ConfigError.js';
import type { GatewayConfig } from './types.js';
import { validateConfig } from './validateConfig.js';

/**
 * Reads a YAML or JSON config file (chosen by extension; YAML is a superset of JSON) and
 * validates it. Throws ConfigError naming the field, or for unreadable/unparseable files.
 */
export async function loadConfigFile(file: string): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError('(file)', `cannot read ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError('(file)', `cannot parse ${file}: ${(err as Error).message}`);
  }
  return validateConfig(raw);
}
