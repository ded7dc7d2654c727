import { DEFAULT_PLANS, type Plan } from '../plans/Plan.js';

/**
 * `DEFAULT_PLANS` as named plans (what `registerAdminApi` and the key authenticator take),
 * for callers without a config that lists plans (the CLI's offline path, tests).
 *
 * @example
 * registerAdminApi(app, { keys, accounts, plans: defaultPlanTable(), onKeyChanged });
 */
export function defaultPlanTable(): Readonly<Record<string, Plan>> {
  return Object.freeze(Object.fromEntries(Object.entries(DEFAULT_PLANS).map(([name, p]) => [name, { name, ...p }])));
}
