/** What a field's value may print as before it is cut (a huge object stays one readable line). */
const MAX_VALUE_LENGTH = 300;
/** Text printed bare: no spaces, quotes, `=` or control characters. */
const BARE = /^[\p{L}\p{N}_.:/@+\-…,#()[\]<>?&%*~]+$/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const pad = (n: number) => String(n).padStart(2, '0');

/** A string as it prints: bare when it can be, else quoted with JSON escapes (newlines never print raw). */
function quoted(text: string): string {
  const cut = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
  return BARE.test(cut) ? cut : JSON.stringify(cut);
}

function value(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return quoted(v);
  if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  // an error (as redactFields leaves it): its message and code, not its stack
  const e = v as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  if (typeof e.message === 'string' && typeof e.name === 'string' && ('stack' in e || 'code' in e)) {
    return quoted(e.code === undefined ? e.message : `${e.message} (${String(e.code)})`);
  }
  // anything else as compact JSON (its escapes keep it on one line)
  const text = JSON.stringify(v) ?? String(v);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
}

/**
 * One log line for a person at a terminal: the local time, the level and the message, then
 * each field as `name=value` (text with spaces or odd characters quoted with JSON escapes, so
 * a client's newline can never start a line of its own; an error as its message and code,
 * without its stack; other objects as compact JSON; long values cut at 300 characters). The fields must already be redacted
 * ({@link redactFields}); the message is escaped here, not redacted.
 *
 * @example
 * formatLogLine('warn', 'upstream slow', { upstream: 'anvil', latencyMs: 812 }, new Date(2026, 0, 1, 12, 0, 1));
 * // '12:00:01 warn  upstream slow upstream=anvil latencyMs=812\n'
 */
export function formatLogLine(
  level: string,
  msg: string,
  fields: Readonly<Record<string, unknown>> | undefined,
  now: Date = new Date(),
): string {
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  const text = CONTROL.test(msg) ? JSON.stringify(msg).slice(1, -1) : msg;
  let line = `${time} ${level.padEnd(5)} ${text}`;
  for (const [name, v] of Object.entries(fields ?? {})) {
    const shown = value(v);
    if (shown !== undefined) line += ` ${name}=${shown}`;
  }
  return `${line}\n`;
}
