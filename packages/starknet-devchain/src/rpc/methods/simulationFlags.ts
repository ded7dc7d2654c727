import { readFlags } from '../readFlags.js';

/** Parse simulation flags (SKIP_VALIDATE, SKIP_FEE_CHARGE, RETURN_INITIAL_READS). */
export function simulationFlags(value: unknown): {
  skipValidate: boolean;
  skipFeeCharge: boolean;
  returnInitialReads: boolean;
} {
  const flags = readFlags(value, 'simulation_flags', ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE', 'RETURN_INITIAL_READS']);
  return {
    skipValidate: flags.has('SKIP_VALIDATE'),
    skipFeeCharge: flags.has('SKIP_FEE_CHARGE'),
    returnInitialReads: flags.has('RETURN_INITIAL_READS'),
  };
}
