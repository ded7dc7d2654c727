/**
 * When started by a nodegate gateway (`NODEGATE_PARENT_PID` in the environment), watches that
 * the gateway still runs, twice a second, and calls `onGone` once when it does not (the process
 * was re-parented, or the pid is gone): a gateway killed with SIGKILL cannot stop its children,
 * so they stop themselves. A stop that takes longer than 5 s ends in `process.exit(1)`.
 * Does nothing without the variable (a backend started by hand).
 *
 * @example
 * exitWithParent(() => stop('the gateway is gone'));
 */
export function exitWithParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  const parent = Number(env.NODEGATE_PARENT_PID);
  if (!Number.isSafeInteger(parent) || parent <= 1) return;
  const alive = () => {
    try {
      process.kill(parent, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  const timer = setInterval(() => {
    if (process.ppid === parent && alive()) return;
    clearInterval(timer);
    setTimeout(() => process.exit(1), 5_000).unref();
    onGone();
  }, 500);
  timer.unref();
}
