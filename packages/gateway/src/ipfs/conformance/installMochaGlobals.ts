import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import type { SkipList } from './createSkipList.js';

/** A mocha `this` (suite, hook or test context): what interface-ipfs-core calls on it. */
interface MochaContext {
  timeout(ms?: number): number | MochaContext;
  slow(ms?: number): MochaContext;
  retries(n?: number): MochaContext;
  skip(): never;
}

type MochaFn = (this: MochaContext, done?: (err?: unknown) => void) => unknown;

/** What the runner learns while the suite registers its tests. */
export interface RegisteredTests {
  /** Full names (`.add > should add a File`) of every test the suite registered. */
  readonly names: readonly string[];
}

/** Timeout of a suite that sets none (interface-ipfs-core sets its own on most). */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Installs mocha's globals (`describe`, `it`, `before`, `after`, `beforeEach`, `afterEach`, their
 * `.skip`/`.only`, and the `this` of mocha callbacks: `timeout`, `slow`, `retries`, `skip`) on
 * top of vitest, so that interface-ipfs-core's test files register vitest tests. Each test's full
 * name is the describe titles and its own joined with ` > `; a name in `skips` (or under a
 * skipped describe) is registered as skipped, with its reason in its title. `.only` is ignored
 * (the whole selection always runs). A suite's `this.timeout(ms)` sets its tests' and hooks'
 * timeout; a test's own `this.timeout` cannot change a running vitest test and is ignored.
 *
 * @example
 * const registered = installMochaGlobals(skips);
 * root(factory); // interface-ipfs-core's `root` suite, now vitest tests
 */
export function installMochaGlobals(skips: SkipList): RegisteredTests {
  const titles: string[] = [];
  const timeouts: number[] = [DEFAULT_TIMEOUT_MS];
  const names: string[] = [];
  const timeout = () => timeouts.at(-1) ?? DEFAULT_TIMEOUT_MS;
  const suiteContext = (): MochaContext => {
    const ctx: MochaContext = {
      timeout(ms?: number) {
        if (ms === undefined) return timeout();
        timeouts[timeouts.length - 1] = Math.max(ms, DEFAULT_TIMEOUT_MS);
        return ctx;
      },
      slow: () => ctx,
      retries: () => ctx,
      skip(): never {
        throw new Error('this.skip() in a describe callback is not supported');
      },
    };
    return ctx;
  };

  const register = (title: string, fn: MochaFn, skipped: boolean) => {
    // vitest may run a describe's body after its parent's returned: the path is taken now
    const path = [...titles, title];
    const inherited = timeout();
    const full = path.join(' > ');
    const reason = skipped ? 'skipped by interface-ipfs-core' : skips.reasonFor(full);
    const body = () => {
      const outerTitles = titles.splice(0, titles.length, ...path);
      const outerTimeouts = timeouts.splice(0, timeouts.length, DEFAULT_TIMEOUT_MS, inherited);
      try {
        fn.call(suiteContext());
      } finally {
        titles.splice(0, titles.length, ...outerTitles);
        timeouts.splice(0, timeouts.length, ...outerTimeouts);
      }
    };
    if (reason !== undefined) describe.skip(`${title} [skipped: ${reason}]`, body);
    else describe(title, body);
  };
  const mochaDescribe = (title: string, fn: MochaFn) => register(title, fn, false);
  mochaDescribe.skip = (title: string, fn: MochaFn) => register(title, fn, true);
  mochaDescribe.only = mochaDescribe;

  const test = (title: string, fn: MochaFn | undefined, skipped: boolean) => {
    const full = [...titles, title].join(' > ');
    names.push(full);
    const reason = skipped || fn === undefined ? 'skipped by interface-ipfs-core' : skips.reasonFor(full);
    if (reason !== undefined) {
      it.skip(`${title} [skipped: ${reason}]`, () => undefined);
      return;
    }
    it(
      title,
      async (vitestContext) =>
        run(
          fn!,
          testContext(() => vitestContext.skip()),
        ),
      timeout(),
    );
  };
  const mochaIt = (title: string, fn?: MochaFn) => test(title, fn, false);
  mochaIt.skip = (title: string, fn?: MochaFn) => test(title, fn, true);
  mochaIt.only = mochaIt;
  mochaIt.retries = () => undefined;

  const hook =
    (register: (fn: () => Promise<void>, timeout: number) => void) =>
    (fn: MochaFn): void =>
      register(() => run(fn, testContext()), timeout());

  Object.assign(globalThis, {
    describe: mochaDescribe,
    it: mochaIt,
    before: hook(beforeAll),
    after: hook(afterAll),
    beforeEach: hook(beforeEach),
    afterEach: hook(afterEach),
  });
  return { names };
}

function testContext(skip?: () => void): MochaContext {
  const ctx: MochaContext = {
    timeout: () => ctx,
    slow: () => ctx,
    retries: () => ctx,
    skip(): never {
      if (skip === undefined) throw new Error('this.skip() in a hook is not supported');
      skip();
      throw new Error('skipped');
    },
  };
  return ctx;
}

/** Runs a mocha callback: a promise, or a `done` callback when it declares one. */
async function run(fn: MochaFn, ctx: MochaContext): Promise<void> {
  if (fn.length > 0) {
    await new Promise<void>((resolve, reject) => {
      fn.call(ctx, (err?: unknown) => (err === undefined || err === null ? resolve() : reject(err)));
    });
    return;
  }
  await fn.call(ctx);
}
