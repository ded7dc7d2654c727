import type { FastifyInstance } from 'fastify';
import { ErrorBody, RestrictionsResponse } from './adminSchemas.js';
import { restrictionsView } from './restrictionsView.js';

/**
 * `GET /restrictions`: what a key's restrictions apply to, read from the gateway's method tables
 * (the dashboard's hints show it): the methods the contract allowlist checks, which of them read
 * the state of the address they are given (a plain wallet address must be on the list), and the
 * dev-chain prefixes it refuses outright. Any signed-in caller may read it (it holds no tenant data).
 *
 * @example
 * registerRestrictionRoutes(api); // GET /admin/api/v1/restrictions
 */
export function registerRestrictionRoutes(api: FastifyInstance): void {
  api.get(
    '/restrictions',
    {
      schema: {
        summary: 'The methods each key restriction applies to (from the method tables)',
        response: { 200: RestrictionsResponse, 401: ErrorBody },
      },
    },
    async () => restrictionsView(),
  );
}
