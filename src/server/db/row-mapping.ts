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
  // A "__proto__" key would set the row's prototype in the generated literal; no table has one.
  if (fields.some((f) => f.path.length > 2 || f.path.includes('__proto__'))) return null;
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
  return compile(outer, inner, decode, nullable)(decoders);
}

/**
 * The mapper's loop as code of its own for each selection, creating each row with an object
 * literal: one object shape per selection, known to the code that makes it. A single loop shared by
 * every selection sets keys by name on objects of hundreds of shapes; V8's caches for those stores
 * and reads go megamorphic once the server has run a few dozen statements, and every later row pays
 * for it (docs/performance.md#row-mapping). The keys are the selection's own field names, written
 * as JSON strings, and the values are read by position, so nothing of a row's data becomes code.
 */
function compile(
  outer: string[],
  inner: Array<string | null>,
  decode: boolean[],
  nullable: Array<{ name: string; key: string; table: string }>,
): (decoders: Decoder[]) => RowMapper {
  const q = (key: string) => JSON.stringify(key);
  const value = (i: number) =>
    decode[i] ? `row[${i}] === null ? null : d${i}.mapFromDriverValue(row[${i}])` : `row[${i}]`;
  // Top-level keys in the order drizzle makes them: an object where its first column is.
  const top: Array<{ key: string; parts: string[] | null; i: number }> = [];
  const objects = new Map<string, string[]>();
  for (let i = 0; i < outer.length; i++) {
    const key = inner[i];
    if (key == null) {
      top.push({ key: outer[i]!, parts: null, i });
      continue;
    }
    let parts = objects.get(outer[i]!);
    if (!parts) {
      objects.set(outer[i]!, (parts = []));
      top.push({ key: outer[i]!, parts, i });
    }
    parts.push(`${q(key)}: ${value(i)}`);
  }
  const literal = top.map((t) => `${q(t.key)}: ${t.parts ? `{ ${t.parts.join(', ')} }` : value(t.i)}`).join(',\n');
  const nulls = nullable.map(
    (o) => `if (out[${q(o.name)}][${q(o.key)}] === null && !joins[${q(o.table)}]) out[${q(o.name)}] = null;`,
  );
  const body = `
    const [${decode.map((d, i) => (d ? `d${i}` : '')).join(', ')}] = decoders;
    return (rows, joins) => {
      const result = new Array(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const out = {\n${literal}\n};
        ${nulls.length ? `if (joins) {\n${nulls.join('\n')}\n}` : ''}
        result[r] = out;
      }
      return result;
    };`;
  // Generated from the selection's field names only (see above), never from a request or a row.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- one function per selection is the point
  return new Function('decoders', body) as (decoders: Decoder[]) => RowMapper;
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
