/**
 * The row an INSERT … RETURNING wrote (or the first of the rows a caller knows exist). PostgreSQL
 * answers one row per row inserted, so an empty answer is a fault of the server, never of the
 * caller: it is answered 500 and logged.
 */
export function firstRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('The statement answered no row.');
  return row;
}
