// `aegir/fixtures`: the bytes of a fixture file, found as `aegir/resolve` finds it.
import { readFileSync } from 'node:fs';
import resolve from './resolve.js';

export default function loadFixtures(filePath, module = '') {
  return readFileSync(resolve(filePath, module));
}
