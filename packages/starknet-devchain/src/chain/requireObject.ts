import { invalidParams } from '../errors.js';

/** The value as a plain object, or INVALID_PARAMS naming `field`. */
export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParams(`${field}: expected an object`);
  return value as Record<string, unknown>;
}
