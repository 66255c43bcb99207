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

/**
 * The rows grouped by `keyOf`, each group in the order the rows came: how a page of payments gets
 * their allocations, read in one statement, in one pass.
 */
export function groupRows<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
