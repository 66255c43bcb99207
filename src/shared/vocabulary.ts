/**
 * The values of a fixed vocabulary, read from the table of their labels so each value is named
 * once: in the table's order, as the non-empty tuple zod's `z.enum` takes.
 */
export function valuesOf<K extends string>(labels: Record<K, string>): [K, ...K[]] {
  // Object.keys answers the table's own keys, in the order they were written.
  return Object.keys(labels) as [K, ...K[]];
}
