import { invalidParams } from '../../errors.js';

/** Parse simulation flags (SKIP_VALIDATE, SKIP_FEE_CHARGE). */
export function simulationFlags(value: unknown): { skipValidate: boolean; skipFeeCharge: boolean } {
  if (value === undefined || value === null) return { skipValidate: false, skipFeeCharge: false };
  if (!Array.isArray(value)) throw invalidParams('simulation_flags: expected an array');
  for (const f of value)
    if (f !== 'SKIP_VALIDATE' && f !== 'SKIP_FEE_CHARGE')
      throw invalidParams(`simulation_flags: unknown flag ${String(f)}`);
  return { skipValidate: value.includes('SKIP_VALIDATE'), skipFeeCharge: value.includes('SKIP_FEE_CHARGE') };
}
