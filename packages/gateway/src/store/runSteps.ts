import type { SqlConnection, SqlStatement } from './SqlConnection.js';

/** The statements of one store operation: each gets the operation's parameters. */
export type SqlSteps = readonly Omit<SqlStatement, 'params' | 'each'>[];

/**
 * Runs one store operation, written as one statement (PostgreSQL's dialect, where statements
 * chain in a `WITH`) or as several (SQLite's, which has no data-modifying `WITH`), all with the
 * same `params`: one statement is a plain query, several are one transaction. Resolves to the rows
 * of the last statement, or none when a `stopUnlessRows` statement stopped it before the last.
 *
 * @example
 * const rows = await runSteps(sql, ACCOUNT_SQL[sql.dialect].acceptInvitation, [tokenHash, userId]);
 */
export async function runSteps<R>(sql: SqlConnection, steps: SqlSteps, params: readonly unknown[]): Promise<R[]> {
  if (steps.length === 1) return (await sql.query<R>(steps[0]!.sql, [...params])).rows;
  const results = await sql.transaction(steps.map((s) => ({ ...s, params })));
  return results.length === steps.length ? (results[results.length - 1]!.rows as R[]) : [];
}
