import { describe, expect, it } from 'vitest';
import { parseMode, readFilesOptions, readMetadata } from './readFilesOptions.js';

describe('readFilesOptions', () => {
  it('reads options as go-ipfs-cmds does: aliases, Go booleans, integers; 400 for a value twice or one that does not convert', () => {
    const o = readFilesOptions(new URLSearchParams('p&o=10&e=1&unknown=x'), {
      parents: { type: 'bool', aliases: ['p'] },
      offset: { type: 'int', aliases: ['o'] },
      create: { type: 'bool', aliases: ['e'] },
    });
    expect([o.bool('parents'), o.int('offset'), o.bool('create'), o.bool('flush', true)]).toEqual([
      true,
      10,
      true,
      true,
    ]);
    expect(() =>
      readFilesOptions(new URLSearchParams('p=true&parents=false'), { parents: { type: 'bool', aliases: ['p'] } }),
    ).toThrow('expected key parents to have only a single value, received [false true]');
    expect(() => readFilesOptions(new URLSearchParams('offset=1.5'), { offset: { type: 'int' } })).toThrow(
      'Could not convert value "1.5" to type "int" (for option "-offset")',
    );
    expect(() => readFilesOptions(new URLSearchParams('flush=maybe'), {})).toThrow(/type "bool"/);
  });

  it('mode is a Go integer literal (0644 octal, as clients send it); a mode or mtime of 0 stores none', () => {
    expect(parseMode('0644')).toBe(0o644);
    expect(parseMode('0o4755')).toBe(0o4755);
    expect(parseMode('420')).toBe(0o644);
    expect(() => parseMode('rwx')).toThrow('Could not convert value "rwx" to type "uint" (for option "-mode")');
    const meta = (q: string) =>
      readMetadata(
        readFilesOptions(new URLSearchParams(q), {
          mode: { type: 'string' },
          mtime: { type: 'int' },
          'mtime-nsecs': { type: 'int' },
        }),
      );
    expect(meta('mode=0&mtime=0')).toEqual({ mode: undefined, mtime: undefined });
    expect(meta('mode=0321&mtime=5&mtime-nsecs=7')).toEqual({ mode: 0o321, mtime: { secs: 5n, nsecs: 7 } });
    expect(() => meta('mtime=5&mtime-nsecs=1000000000')).toThrow('mtime-nsecs must be within the range [0,999999999]');
  });
});
