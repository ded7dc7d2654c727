import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { startAnvil } from '../startAnvil.js';
import { seedAnvilWelcome } from './seedAnvilWelcome.js';
import { WELCOME } from './welcomeState.js';

/** What {@link prepareAnvilWelcome} found or did. */
export type AnvilWelcomePreparation =
  | { readonly prepared: true; readonly deployTransaction: string; readonly transferTransaction: string }
  | { readonly prepared: false; readonly reason: 'chain exists' };

/**
 * Before anvil first starts on `stateFile`: makes that file hold the welcome state. A short-lived
 * anvil of its own (genesis at the welcome time, mining on demand whatever block time the real
 * one gets) is seeded ({@link seedAnvilWelcome}) and stopped, which writes its chain; the file is
 * then renamed into place, so anvil loads the welcome state and a failure leaves no half-seeded
 * chain behind (the file is simply absent, and anvil starts empty). When `stateFile` exists the
 * chain is the user's and nothing is done: the welcome state is given once per data directory.
 *
 * @example
 * await prepareAnvilWelcome({ stateFile: join(dataDir, 'anvil', 'state.json'), chainId: 31337 });
 * const anvil = await startAnvil({ stateFile, chainId: 31337 });
 */
export async function prepareAnvilWelcome(options: {
  readonly stateFile: string;
  readonly chainId?: number | undefined;
}): Promise<AnvilWelcomePreparation> {
  if (existsSync(options.stateFile)) return { prepared: false, reason: 'chain exists' };
  const tmp = `${options.stateFile}.welcome.tmp`;
  await rm(tmp, { force: true });
  const anvil = await startAnvil({
    stateFile: tmp,
    // written on stop; no periodic writes while the seed runs
    stateIntervalS: 3600,
    ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
    args: ['--timestamp', String(WELCOME.eth.timestamps.genesis)],
  });
  try {
    const seeded = await seedAnvilWelcome(anvil.http);
    if (!seeded.seeded) throw new Error(`the new anvil chain was not at the welcome genesis (${seeded.reason})`);
    await anvil.stop();
    if (!existsSync(tmp)) throw new Error('anvil stopped without writing its chain');
    await rename(tmp, options.stateFile);
    return {
      prepared: true,
      deployTransaction: seeded.deployTransaction,
      transferTransaction: seeded.transferTransaction,
    };
  } catch (err) {
    await anvil.stop();
    await rm(tmp, { force: true });
    throw err;
  }
}
