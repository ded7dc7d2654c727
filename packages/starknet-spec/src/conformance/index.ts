/** Checking requests, results and errors against the published starknet-specs JSON schemas (with Ajv). */
export { absoluteRefs } from './absoluteRefs.js';
export { createSpecValidator, type SpecValidator } from './createSpecValidator.js';
export { describeSchemaErrors } from './describeSchemaErrors.js';
