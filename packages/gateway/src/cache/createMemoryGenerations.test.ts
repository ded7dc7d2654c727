import { describe } from 'vitest';
import { createMemoryGenerations } from './createMemoryGenerations.js';
import { generationsContract } from './generationsContract.js';

describe('createMemoryGenerations', () => {
  // one process: its handles are one object
  generationsContract(async () => {
    const g = createMemoryGenerations();
    return () => g;
  });
});
