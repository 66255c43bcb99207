import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { PgSession } from 'drizzle-orm/pg-core';

type Fields = NonNullable<Parameters<PgSession['prepareQuery']>[1]>;
type Field = Fields[number]['field'];
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The decoder drizzle's `mapResultRow` picks for a selected field, in the same order of tests. */
function decoderOf(field: Field): Decoder {
  if (is(field, Column)) return field;
  // drizzle keeps these decoders out of its published types.
  const f = field as unknown as { decoder: Decoder; sql: { decoder: Decoder }; _: { sql: { decoder: Decoder } } };
  if (is(field, SQL)) return f.decoder;
  if (is(field, Subquery)) return f._.sql.decoder;
  return f.sql.decoder;
}

const passThrough = (d: Decoder) => d.mapFromDriverValue === Column.prototype.mapFromDriverValue;

/** Which joined tables may be absent from a row (drizzle's `joinsNotNullableMap`: table name → never null). */
type JoinsNotNullable = Record<string, boolean> | undefined;
export type RowMapper = (rows: unknown[][], joins: JoinsNotNullable) => Array<Record<string, unknown>>;

/**
 * The rows of a selection at most two keys deep (`{ id: t.id }`, `{ e: enrollments, user: { id:
 * users.id } }`) as drizzle's `mapResultRow` makes them: the same keys in the same order, null kept
 * as null, every other value through its column's (or SQL's) `mapFromDriverValue`, and an object
 * of a left-joined table set to null when drizzle would: its first column is null, all its columns
 * come from that one table, and the join may be absent. drizzle works all of this out again for
 * every cell (an `is()` walk of the prototype chain per test, an iterator over each path); here it
 * is worked out once per statement (docs/performance.md#row-mapping). Deeper selections are left to
 * drizzle: `null` is returned for them.
 */
export function rowMapper(fields: Fields): RowMapper | null {
  if (fields.some((f) => f.path.length > 2)) return null;
  const n = fields.length;
  const outer = fields.map((f) => f.path[0]!);
  const inner = fields.map((f) => (f.path.length === 2 ? f.path[1]! : null));
  const decoders = fields.map((f) => decoderOf(f.field));
  const decode = decoders.map((d) => !passThrough(d));
  // drizzle decides an object's nullness by its first column; a second table in it cancels that.
  const objects = new Map<string, { key: string; table: string; mixed: boolean }>();
  fields.forEach((f, i) => {
    if (f.path.length !== 2 || !is(f.field, Column)) return;
    const table = getTableName(f.field.table);
    const seen = objects.get(outer[i]!);
    if (!seen) objects.set(outer[i]!, { key: inner[i]!, table, mixed: false });
    else if (seen.table !== table) seen.mixed = true;
  });
  const nullable = [...objects].filter(([, o]) => !o.mixed).map(([name, o]) => ({ name, key: o.key, table: o.table }));
  return (rows, joins) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const raw = row[i];
        const value = raw === null ? null : decode[i] ? decoders[i]!.mapFromDriverValue(raw) : raw;
        const key = inner[i];
        if (key == null) out[outer[i]!] = value;
        else ((out[outer[i]!] ??= {}) as Record<string, unknown>)[key] = value;
      }
      if (joins) {
        for (const o of nullable) {
          if ((out[o.name] as Record<string, unknown>)[o.key] === null && !joins[o.table]) out[o.name] = null;
        }
      }
      return out;
    });
}

const mapped = new WeakSet<object>();
/** One mapper per selection: a query prepared again on another handle (db/prepared.ts) shares it. */
const mappers = new WeakMap<Fields, RowMapper>();

/**
 * Gives every select (and insert/update/delete ... returning) prepared on a session of this class the
 * mapper above, when it has no mapper of its own (relational queries bring theirs). Raw `execute`
 * calls have no fields and keep their object rows. Both drivers' sessions take the mapper the same
 * way: `customResultMapper(rows)` in place of `rows.map(mapResultRow)`. The mapper is worked out
 * when the statement first returns rows, so a statement built for one call that finds nothing
 * costs nothing more, and once per selection, so a statement made again for a transaction
 * (db/prepared.ts) shares it. drizzle sets the prepared query's `joinsNotNullableMap` after
 * preparing it, so it is read from the query then too.
 */
export function mapRowsOnce(session: { prototype: Pick<PgSession, 'prepareQuery'> }) {
  const proto = session.prototype;
  if (mapped.has(proto)) return;
  mapped.add(proto);
  const prepareQuery = proto.prepareQuery;
  proto.prepareQuery = function (this: PgSession, query, fields, name, inArrayMode, customResultMapper, ...rest) {
    const ours = fields && inArrayMode && !customResultMapper && fields.every((f) => f.path.length <= 2);
    let mapper: RowMapper | undefined;
    const mapRows = (rows: unknown[][]): unknown => {
      if (rows.length === 0) return [];
      const joins = (prepared as unknown as { joinsNotNullableMap?: JoinsNotNullable }).joinsNotNullableMap;
      if (!mapper) {
        // Looked up once per prepared query, not per execution: the pool's run many times.
        mapper = mappers.get(fields!);
        if (!mapper) mappers.set(fields!, (mapper = rowMapper(fields!)!));
      }
      return mapper(rows, joins);
    };
    const prepared: ReturnType<typeof prepareQuery> = prepareQuery.call(
      this,
      query,
      fields,
      name,
      inArrayMode,
      ours ? mapRows : customResultMapper,
      ...rest,
    );
    return prepared;
  } as typeof prepareQuery;
}
