/**
 * How full a room is (docs/appointments.md#rooms): the most sessions in it at any one instant, so a
 * room of two holds two back-to-back sessions beside a third that overlaps both.
 */

/** The most of `intervals` that overlap at any one instant inside [start, end). */
export function mostAtOnce(intervals: ReadonlyArray<{ start: Date; end: Date }>, start: Date, end: Date): number {
  const edges: Array<[number, number]> = [];
  for (const i of intervals) {
    const from = Math.max(i.start.getTime(), start.getTime());
    const to = Math.min(i.end.getTime(), end.getTime());
    if (from >= to) continue;
    edges.push([from, 1], [to, -1]);
  }
  // An interval ending at the instant another starts does not overlap it: ends sort first.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) {
    now += step;
    most = Math.max(most, now);
  }
  return most;
}
