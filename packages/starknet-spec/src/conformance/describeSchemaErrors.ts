import type { ErrorObject } from 'ajv';

/**
 * The first five of Ajv's errors as one line (`/path message {params}; …`), for test failure messages.
 *
 * @example
 * if (!validate(result)) throw new Error(describeSchemaErrors(validate.errors));
 */
export const describeSchemaErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('; ');
