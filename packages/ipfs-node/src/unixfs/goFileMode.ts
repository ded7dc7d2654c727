/** Go's `os.FileMode` bits that Kubo's JSON carries for UnixFS metadata. */
const MODE_DIR = 2 ** 31;
const MODE_SYMLINK = 2 ** 27;
const MODE_SETUID = 2 ** 23;
const MODE_SETGID = 2 ** 22;
const MODE_STICKY = 2 ** 20;

/**
 * A UnixFS mode as Go's `os.FileMode` number (Kubo's `ls` JSON `Mode`): permission bits, the
 * setuid/setgid/sticky bits moved to Go's positions, and the type bit of directories and
 * symlinks; 0 when the node stores no mode.
 *
 * @example
 * goFileMode(0o755, 'directory') // 2147484141 (os.ModeDir | 0755)
 */
export function goFileMode(mode: number | undefined, type: 'file' | 'directory' | 'symlink'): number {
  if (mode === undefined || (mode & 0o7777) === 0) return 0;
  let out = mode & 0o777;
  if (mode & 0o4000) out += MODE_SETUID;
  if (mode & 0o2000) out += MODE_SETGID;
  if (mode & 0o1000) out += MODE_STICKY;
  if (type === 'directory') out += MODE_DIR;
  if (type === 'symlink') out += MODE_SYMLINK;
  return out;
}

/**
 * A UnixFS mtime as Go's `time.Time` in JSON (RFC 3339 with nanoseconds, UTC), and Go's zero
 * time (`0001-01-01T00:00:00Z`) when the node stores none or the year is out of JSON's range.
 *
 * @example
 * goTimeJson({ secs: 1603539720n, nsecs: 54321 }) // '2020-10-24T11:42:00.000054321Z'
 */
export function goTimeJson(mtime: { secs: bigint; nsecs: number } | undefined): string {
  const zero = '0001-01-01T00:00:00Z';
  if (mtime === undefined) return zero;
  const ms = Number(mtime.secs) * 1000;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(ms) || Number.isNaN(date.getTime()) || year < 0 || year > 9999) return zero;
  const base = date.toISOString().slice(0, 19);
  const fraction = mtime.nsecs > 0 ? `.${String(mtime.nsecs).padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${base}${fraction}Z`;
}
