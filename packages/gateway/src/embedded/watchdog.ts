/**
 * The embedded backends' watchdog, a small process of its own:
 * `node watchdog.js <gateway pid> <pid file>…`. While the gateway runs it does nothing; when the
 * gateway is gone (even killed with SIGKILL, which gives it no chance to stop its children) it
 * stops every backend named in the pid files (only a process whose command line still holds the
 * recorded marker) and exits. The gateway stops it on a normal close.
 */
import { reapStaleChild } from './reapStaleChild.js';

const [gatewayPid, ...pidFiles] = process.argv.slice(2);
const parent = Number(gatewayPid);

const gone = () => {
  if (process.ppid !== parent) return true;
  try {
    process.kill(parent, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
};

if (!Number.isSafeInteger(parent) || parent <= 1) process.exit(2);
const timer = setInterval(() => {
  if (!gone()) return;
  clearInterval(timer);
  Promise.all(pidFiles.map((f) => reapStaleChild(f, 2_000))).finally(() => process.exit(0));
}, 250);
process.on('SIGTERM', () => process.exit(0));
