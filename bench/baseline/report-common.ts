/**
 * What the bare report scripts share: the course-list rows streamed with a postgres.js cursor,
 * the cells as the product shows them, and a peak-memory reading of this process.
 */
import fs from 'node:fs';
import postgres from 'postgres';

export const TIME_ZONE = process.env.TIME_ZONE ?? 'Asia/Colombo';

export const COLUMNS = [
  { key: 'courseName', header: 'Course Name', type: 'text', width: 30 },
  { key: 'category', header: 'Category', type: 'text', width: 18 },
  { key: 'duration', header: 'Duration', type: 'text', width: 14 },
  { key: 'totalFee', header: 'Total Fee (Rs.)', type: 'money', width: 16 },
  { key: 'admissionFee', header: 'Admission Fee (Rs.)', type: 'money', width: 18 },
  { key: 'installments', header: 'Installments', type: 'int', width: 12 },
  { key: 'createdAt', header: 'Created At', type: 'datetime', width: 18 },
] as const;

const stamp = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** `YYYY-MM-DD HH:MM` in the institute's time zone, as the product's reports print it. */
export function dateTimeText(d: Date): string {
  const p = Object.fromEntries(stamp.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

export type Cells = [string, string, string, number, number, number, string];

export function openSql() {
  return postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { jit: 'off' } });
}

/** The rows of the course list report, oldest first, 1,000 at a time. */
export async function* courseRows(sql: postgres.Sql, category?: string): AsyncGenerator<Cells[]> {
  const where = category ? sql`where lower(category) = lower(${category})` : sql``;
  const cursor = sql<
    {
      course_name: string;
      category: string;
      duration: string;
      total: string;
      admission: string;
      installments: number;
      created_at: Date;
    }[]
  >`select course_name, category, duration, total_fee_minor as total, admission_fee_minor as admission, installments, created_at
    from courses ${where} order by created_at, id`.cursor(1000);
  for await (const rows of cursor) {
    yield rows.map((r) => [
      r.course_name,
      r.category,
      r.duration,
      Number(r.total) / 100,
      Number(r.admission) / 100,
      r.installments,
      dateTimeText(r.created_at),
    ]);
  }
}

/**
 * Resident memory now, with the kernel's high-water mark reset (Linux: clear_refs 5), and a
 * function answering the peak since then.
 */
export function memoryWatch() {
  const read = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) *
    1024;
  let sampled = process.memoryUsage().rss;
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    /* sampling below still catches most of the peak */
  }
  const start = read('VmRSS') || sampled;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 20);
  return {
    start,
    peak() {
      clearInterval(timer);
      return Math.max(sampled, read('VmHWM'));
    },
  };
}
