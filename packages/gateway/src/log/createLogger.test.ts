import { describe, expect, it } from 'vitest';
import { createLogger } from './createLogger.js';

describe('createLogger', () => {
  it('writes JSON lines at or above its level only', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (l) => lines.push(l));
    log.info('not shown');
    log.warn('shown', { a: 1 });
    log.error('also shown');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ level: 'warn', msg: 'shown', a: 1 });
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    const silent: string[] = [];
    createLogger('silent', (l) => silent.push(l)).error('x');
    expect(silent).toEqual([]);
  });
});
