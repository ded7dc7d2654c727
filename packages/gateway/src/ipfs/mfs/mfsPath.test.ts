import { describe, expect, it } from 'vitest';
import { checkPath, splitParent } from './mfsPath.js';

describe('checkPath (Kubo’s)', () => {
  it('cleans, keeps a trailing slash, and refuses empty and relative paths with Kubo’s words', () => {
    expect(checkPath('/')).toEqual({ path: '/', parts: [], trailingSlash: false });
    expect(checkPath('//a/./b/../c/')).toEqual({ path: '/a/c/', parts: ['a', 'c'], trailingSlash: true });
    expect(checkPath('/../../x')).toEqual({ path: '/x', parts: ['x'], trailingSlash: false });
    expect(() => checkPath('')).toThrow('paths must not be empty');
    expect(() => checkPath('a/b')).toThrow('paths must start with a leading slash');
    expect(splitParent(checkPath('/a/b/c'))).toEqual({ dir: ['a', 'b'], name: 'c' });
    expect(splitParent(checkPath('/'))).toEqual({ dir: [], name: undefined });
  });
});
