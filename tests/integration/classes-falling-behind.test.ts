import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceMarks } from '../../src/server/db/schema';
import { refreshAttendanceSummaries } from '../../src/server/domains/classes/attendance-summaries';
import { startTestApp, type TestApp } from '../helpers/app';
import { colombo, dayFromToday, enrolStudent, postBatch, TZ, weekdayOf } from '../helpers/class-factories';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';

/**
 * The falling-behind list (docs/classes.md#falling-behind) read from the kept summaries: after
 * every kind of write that touches marks or sessions (marks taken and changed, "all present", a
 * cancelled session, a moved one, a late joiner, a move between batches, parallel registers, a
 * seeded random run of marks), the list is what the definition gives from each enrolment's own
 * attendance answer, worked out here apart.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  expect(t.deps.config.ATTENDANCE_THRESHOLD).toBe(75);
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Falling behind', {
    totalFee: 30000,
    admissionFee: 3000,
    installments: 3,
  });
});
afterAll(() => t.close());

type Session = { _id: string; start: string; status: string };
type Student = { enrollmentId: string; userId: string; name: string };
type Batch = { _id: string; name: string };
type Row = {
  enrollmentId: string;
  student: { _id: string | null; fullName: string };
  batch: { _id: string; name: string };
  rate: number | null;
  absentInARow: number;
  outstanding: Array<{ currency: string; amount: number }>;
};

const api = <T = unknown>(method: string, path: string, body?: unknown) =>
  t.api<T>(method, path, { token: admin.token, body });
const mark = async (sessionId: string, body: unknown) => {
  const res = await api('PUT', `/api/class-sessions/${sessionId}/attendance`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const sessionsOf = async (batchId: string) =>
  (await api<{ data: Session[] }>('GET', `/api/batches/${batchId}/sessions`)).body.data;
const rosterOf = async (sessionId: string) =>
  (
    await api<{ marks: Array<{ enrollmentId: string; status: string | null }> }>(
      'GET',
      `/api/class-sessions/${sessionId}/attendance`,
    )
  ).body.marks;

/**
 * The list as the definition gives it, from each student's attendance answer (rate, and the
 * held sessions in start order: the run is the absent marks after the last present or late),
 * their roster place and their enrolment's outstanding figure.
 */
async function expectedList(batches: Batch[], students: Student[]): Promise<Row[]> {
  const placeOf = new Map<string, Batch>();
  for (const b of batches)
    for (const r of (await api<{ data: Array<{ enrollmentId: string }> }>('GET', `/api/batches/${b._id}/roster`)).body
      .data)
      placeOf.set(r.enrollmentId, b);
  const rows: Row[] = [];
  for (const s of students) {
    const place = placeOf.get(s.enrollmentId);
    if (!place) continue;
    const a = (await api('GET', `/api/enrollments/${s.enrollmentId}/attendance`)).body as {
      rate: number | null;
      sessions: Array<{ status: string | null }>;
    };
    let run = 0;
    for (const x of a.sessions) {
      if (x.status === 'present' || x.status === 'late') run = 0;
      else if (x.status === 'absent') run++;
    }
    if (!((a.rate !== null && a.rate < 75) || run >= 3)) continue;
    const e = (await api('GET', `/api/enrollments/${s.enrollmentId}`)).body as {
      currency: string;
      outstandingAmount: number;
    };
    rows.push({
      enrollmentId: s.enrollmentId,
      student: { _id: s.userId, fullName: s.name },
      batch: { _id: place._id, name: place.name },
      rate: a.rate,
      absentInARow: run,
      outstanding: e.outstandingAmount > 0 ? [{ currency: e.currency, amount: e.outstandingAmount }] : [],
    });
  }
  return rows.sort(
    (x, y) =>
      (x.rate ?? 0) - (y.rate ?? 0) ||
      y.absentInARow - x.absentInARow ||
      x.student.fullName.localeCompare(y.student.fullName),
  );
}

async function expectListRight(label: string, branchId: string, batches: Batch[], students: Student[]) {
  const expected = await expectedList(batches, students);
  const byBranch = await api<{ threshold: number; data: Row[] }>(
    'GET',
    `/api/attendance/falling-behind?branchId=${branchId}`,
  );
  expect(byBranch.status).toBe(200);
  expect(byBranch.body.data, label).toEqual(expected);
  for (const b of batches) {
    const one = await api<{ data: Row[] }>('GET', `/api/attendance/falling-behind?batchId=${b._id}`);
    expect(one.body.data, `${label} (batch)`).toEqual(expected.filter((r) => r.batch._id === b._id));
  }
  // The dashboard card's procedure answers the same list.
  const viaTrpc = await t.trpc(admin.token).attendance.fallingBehind.query({ branchId });
  expect(viaTrpc.data, `${label} (tRPC)`).toEqual(expected);
  return expected;
}

/**
 * Two batches of one branch meeting every weekday but today's (so no session is "today", started
 * or not depending on the hour), from 12 days ago to 10 days ahead.
 */
async function setting() {
  const branch = await makeBranch(t.deps.db);
  const today = weekdayOf(dayFromToday(0));
  const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].filter(
    (w) => w !== today,
  );
  const batch = async (start: string) =>
    postBatch(t, admin.token, {
      courseId,
      branchId: branch.id,
      instructorId: (await t.userWithSession('user', { branchId: branch.id })).id,
      startDate: dayFromToday(-12),
      endDate: dayFromToday(10),
      capacity: 20,
      timetable: weekdays.map((weekday) => ({ weekday, start, end: `${start.slice(0, 2)}:50` })),
    });
  const a = await batch('08:00');
  const b = await batch('10:00');
  const held = async (id: string) => (await sessionsOf(id)).filter((s) => new Date(s.start) < new Date());
  const toCome = async (id: string) => (await sessionsOf(id)).filter((s) => new Date(s.start) > new Date());
  return { branch, a, b, held, toCome };
}

async function enrolAll(branchId: string, names: string[]): Promise<Student[]> {
  const out: Student[] = [];
  for (const name of names) {
    const s = await enrolStudent(t, admin.token, courseId, { branchId, fullName: name });
    out.push({ enrollmentId: s.enrollmentId, userId: s.student.id, name });
  }
  return out;
}

const join = async (s: Student, batchId: string, joinedOn: string) => {
  const res = await api('PUT', `/api/enrollments/${s.enrollmentId}/batch`, { batchId, joinedOn });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('the falling-behind list from the kept summaries', () => {
  it('follows marks taken and changed, all present, a cancel, a move, a late joiner and a move between batches', async () => {
    const { branch, a, b, held, toCome } = await setting();
    const batches = [a, b];
    const [ada, bala, chitra, dinu, late] = await enrolAll(branch.id, ['Ada', 'Bala', 'Chitra', 'Dinu', 'Late']);
    for (const s of [ada!, bala!, chitra!, dinu!]) await join(s, a._id, dayFromToday(-12));
    await join(late!, a._id, dayFromToday(-5));
    const people = [ada!, bala!, chitra!, dinu!, late!];
    const sessions = await held(a._id);
    // Days -12 to -1 but the one a week ago (today's weekday): eleven held sessions.
    expect(sessions).toHaveLength(11);
    const check = (label: string) => expectListRight(label, branch.id, batches, people);

    expect(await check('before any mark')).toEqual([]);

    // Ada absent on the last three held sessions, Bala absent on the three before: both listed.
    const last = sessions.slice(-3);
    for (const s of last) await mark(s._id, { marks: [{ enrollmentId: ada!.enrollmentId, status: 'absent' }] });
    for (const s of sessions.slice(-6, -3))
      await mark(s._id, { marks: [{ enrollmentId: bala!.enrollmentId, status: 'absent' }] });
    let list = await check('absences taken');
    expect(list.map((r) => [r.student.fullName, r.rate, r.absentInARow])).toEqual([
      ['Ada', 0, 3],
      ['Bala', 0, 3],
    ]);

    // Present for everyone not yet marked: Ada's run stands (8 of 11), Bala's is broken by the
    // later sessions but her rate is under the line (8 of 11 too).
    for (const s of sessions) await mark(s._id, { allPresent: true });
    list = await check('all present');
    expect(list.map((r) => [r.student.fullName, r.rate, r.absentInARow])).toEqual([
      ['Ada', 72.7, 3],
      ['Bala', 72.7, 0],
    ]);

    // Absent changed to present on the middle one of Ada's three: the run breaks to one.
    await mark(last[1]!._id, { marks: [{ enrollmentId: ada!.enrollmentId, status: 'present' }] });
    list = await check('absent → present');
    expect(list.find((r) => r.student.fullName === 'Ada')).toBeUndefined();
    // One of Bala's absences changed to late: 9 of 11, off the list.
    await mark(sessions.at(-6)!._id, { marks: [{ enrollmentId: bala!.enrollmentId, status: 'late' }] });
    list = await check('absent → late');
    expect(list).toEqual([]);

    // A held session nobody was marked on is cancelled: the list stays. One holding marks cannot be.
    const bHeld = await held(b._id);
    const cancelled = await api('POST', `/api/class-sessions/${bHeld[0]!._id}/cancel`, { reason: 'Flood' });
    expect(cancelled.status).toBe(200);
    await check('a cancelled session');
    const refused = await api('POST', `/api/class-sessions/${last[2]!._id}/cancel`, { reason: 'Too late' });
    expect(refused.status).toBe(409);

    // Excused ahead on a session to come, which then moves: no rate changes.
    const [next] = await toCome(a._id);
    await mark(next!._id, { marks: [{ enrollmentId: chitra!.enrollmentId, status: 'excused' }] });
    const day = dayFromToday(12);
    const moved = await api('PUT', `/api/class-sessions/${next!._id}`, {
      start: colombo(day, '12:00'),
      end: colombo(day, '13:00'),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await check('excused ahead, then moved');

    // The late joiner: absent on the sessions since joining.
    const since = (await rosterOf(sessions.at(-1)!._id)).some((r) => r.enrollmentId === late!.enrollmentId);
    expect(since).toBe(true);
    for (const s of sessions.filter((x) => x.start >= colombo(dayFromToday(-5), '00:00')))
      await mark(s._id, { marks: [{ enrollmentId: late!.enrollmentId, status: 'absent' }] });
    list = await check('a late joiner');
    expect(list.find((r) => r.enrollmentId === late!.enrollmentId)).toBeDefined();

    // Dinu absent four times in a, then moves to b: the marks go along, the list names b.
    for (const s of sessions.slice(-4))
      await mark(s._id, { marks: [{ enrollmentId: dinu!.enrollmentId, status: 'absent' }] });
    await join(dinu!, b._id, dayFromToday(-3));
    list = await check('a move between batches');
    expect(list.find((r) => r.enrollmentId === dinu!.enrollmentId)?.batch._id).toBe(b._id);
    // Present in b: the run is over, and the rate counts both batches' marks.
    const bSince = (await held(b._id)).filter((s) => s.start >= colombo(dayFromToday(-3), '00:00'));
    await mark(bSince[0]!._id, { marks: [{ enrollmentId: dinu!.enrollmentId, status: 'present' }] });
    await check('present in the new batch');

    // Out of any batch: off the list.
    expect((await api('DELETE', `/api/enrollments/${late!.enrollmentId}/batch`)).status).toBe(200);
    list = await check('left the batch');
    expect(list.find((r) => r.enrollmentId === late!.enrollmentId)).toBeUndefined();
  });

  it('keeps every write of parallel registers on the same students', async () => {
    const { branch, a, held } = await setting();
    const people = await enrolAll(branch.id, ['Esha', 'Farah', 'Gayan']);
    for (const s of people) await join(s, a._id, dayFromToday(-12));
    const sessions = await held(a._id);
    // Every held session marked at once, the same students on each: a recount that missed a
    // parallel write would leave a summary short of marks.
    await Promise.all(
      sessions.map((s, i) =>
        mark(s._id, {
          marks: people.map((p, j) => ({
            enrollmentId: p.enrollmentId,
            status: (i + j) % 3 === 0 ? 'present' : 'absent',
          })),
        }),
      ),
    );
    const list = await expectListRight('parallel registers', branch.id, [a], people);
    expect(list.length).toBeGreaterThan(0);
  });

  it('counts the marks of a register that commits while another recounts the same student', async () => {
    const { branch, a, held } = await setting();
    const [nimal] = await enrolAll(branch.id, ['Nimal']);
    await join(nimal!, a._id, dayFromToday(-12));
    const sessions = await held(a._id);
    await mark(sessions[0]!._id, { marks: [{ enrollmentId: nimal!.enrollmentId, status: 'present' }] });
    await mark(sessions[1]!._id, { marks: [{ enrollmentId: nimal!.enrollmentId, status: 'absent' }] });
    // Two registers' transactions, written as takeAttendance writes them (the mark, then the
    // recount), the first held open after its recount: the interleaving parallel calls only hit
    // by chance. The second's recount must see the first's mark once it commits.
    const absent = (sessionId: string) => ({
      sessionId,
      enrollmentId: nimal!.enrollmentId,
      status: 'absent' as const,
      markedById: admin.id,
    });
    let release!: () => void;
    const open = new Promise<void>((r) => (release = r));
    let recounted!: () => void;
    const firstRecounted = new Promise<void>((r) => (recounted = r));
    const first = t.deps.db.transaction(async (tx) => {
      await tx.insert(attendanceMarks).values(absent(sessions[2]!._id));
      await refreshAttendanceSummaries(tx, [nimal!.enrollmentId]);
      recounted();
      await open;
    });
    await firstRecounted;
    const second = t.deps.db.transaction(async (tx) => {
      await tx.insert(attendanceMarks).values(absent(sessions[3]!._id));
      await refreshAttendanceSummaries(tx, [nimal!.enrollmentId]);
    });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await Promise.all([first, second]);
    const list = await expectListRight('after the two registers', branch.id, [a], [nimal!]);
    expect(list).toEqual([expect.objectContaining({ rate: 25, absentInARow: 3 })]);
  });

  it('matches the definition after a seeded random run of mark writes', async () => {
    const { branch, a, b, held } = await setting();
    const people = await enrolAll(branch.id, ['Hasini', 'Isuru', 'Janaki', 'Kamal', 'Lalith', 'Mala']);
    for (const [i, s] of people.entries()) await join(s, i % 2 ? b._id : a._id, dayFromToday(i < 4 ? -12 : -6));
    const sessions = [...(await held(a._id)), ...(await held(b._id))];
    // mulberry32: the same sequence on every run, so a failure replays.
    let seed = 48;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const statuses = ['present', 'late', 'absent', 'absent', 'absent', 'excused'] as const;
    const listed: number[] = [];
    for (let step = 1; step <= 40; step++) {
      const s = pick(sessions);
      if (random() < 0.1) await mark(s._id, { allPresent: true });
      else {
        const roster = await rosterOf(s._id);
        if (!roster.length) continue;
        const chosen = roster.filter(() => random() < 0.6);
        const marks = (chosen.length ? chosen : [pick(roster)]).map((r) => ({
          enrollmentId: r.enrollmentId,
          status: pick(statuses),
        }));
        await mark(s._id, { marks });
      }
      if (step % 8 === 0) listed.push((await expectListRight(`after step ${step}`, branch.id, [a, b], people)).length);
    }
    // The run put people on the list, not only kept it empty.
    expect(Math.max(...listed)).toBeGreaterThan(0);
  });
});
