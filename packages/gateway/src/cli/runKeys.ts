import { join, resolve } from 'node:path';
import { adminRequest } from '../admin/adminClient.js';
import { type KeyView, keyCommands } from '../admin/keyCommands.js';
import { loadConfigFile } from '../config/loadConfigFile.js';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { acquireDataDirLock } from '../store/acquireDataDirLock.js';
import { openKeyStore } from '../store/openKeyStore.js';

export interface KeysFlags {
  config?: string | undefined;
  dataDir?: string | undefined;
  plan?: string | undefined;
  name?: string | undefined;
  json?: boolean | undefined;
}

/**
 * `nodegate keys create|list|revoke`. While a gateway runs on the data directory the
 * command goes through its admin socket; otherwise it opens the database directly.
 */
export async function runKeys(
  sub: string,
  args: string[],
  flags: KeysFlags,
  out: (line: string) => void,
): Promise<number> {
  const config = flags.config
    ? await loadConfigFile(flags.config)
    : embeddedConfig(flags.dataDir ? { dataDir: flags.dataDir } : {});
  const dataDir = resolve(flags.dataDir ?? config.dataDir);
  const socket = join(dataDir, 'admin.sock');

  const viaSocket = async () => {
    if (sub === 'create') return adminRequest(socket, 'POST', '/keys', { name: flags.name, plan: flags.plan });
    if (sub === 'list') return adminRequest(socket, 'GET', '/keys');
    return adminRequest(socket, 'POST', '/keys/revoke', { key: args[0] });
  };
  const direct = async () => {
    const unlock = await acquireDataDirLock(dataDir);
    const store = await openKeyStore(config, dataDir);
    try {
      const cmds = keyCommands(store);
      if (sub === 'create')
        return await cmds.create({
          ...(flags.name ? { name: flags.name } : {}),
          ...(flags.plan ? { plan: flags.plan } : {}),
        });
      if (sub === 'list') return await cmds.list();
      return { revoked: await cmds.revoke(args[0]!) };
    } finally {
      await store.close();
      await unlock();
    }
  };

  if (sub === 'revoke' && !args[0]) {
    out('usage: nodegate keys revoke KEY');
    return 2;
  }
  const result = (await viaSocket()) ?? (await direct());

  if (sub === 'create') {
    const k = result as KeyView & { secret: string };
    if (flags.json) out(JSON.stringify(k));
    else {
      out(`key:    ${k.key}`);
      out(`secret: ${k.secret}   (shown once: store it now)`);
      out(`plan:   ${k.plan}${k.name ? `   name: ${k.name}` : ''}`);
    }
    return 0;
  }
  if (sub === 'list') {
    const keys = result as KeyView[];
    if (flags.json) out(JSON.stringify(keys));
    else if (keys.length === 0) out('no keys');
    else {
      for (const k of keys) {
        out(`${k.key}  ${k.revokedAt ? 'revoked' : 'active '}  ${k.plan.padEnd(8)} ${k.createdAt}  ${k.name}`);
      }
    }
    return 0;
  }
  const revoked = (result as { revoked: boolean }).revoked;
  if (flags.json) out(JSON.stringify({ key: args[0], revoked }));
  else out(revoked ? 'revoked' : 'no active key with that id');
  return revoked ? 0 : 1;
}
