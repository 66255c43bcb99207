import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { messages, users } from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/client';
import { planDueSoon } from '../../src/server/domains/messages/due-soon';
import { optOutToken } from '../../src/server/domains/messages/opt-out';
import { defaultMessageSettings, storeMessageSettings } from '../../src/server/domains/messages/settings';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { waitForEmail } from '../helpers/email';
import { daysFromToday, makeEnrollment } from './reminders.fixtures';

/**
 * Planning a page of messages costs a fixed number of statements whatever its length, and a
 * statement asked for at the desk goes through the delivery log whatever the person opted out of
 * (docs/messages.md).
 */
let t: TestApp;
let sql: postgres.Sql;
let statements = 0;
let counted: Db;

beforeAll(async () => {
  t = await startTestApp();
  await storeMessageSettings(t.deps.db, { ...defaultMessageSettings(), quietHours: null });
  // A second handle on the same database that counts every statement sent through it.
  sql = postgres(t.deps.config.DATABASE_URL!, { max: 1, debug: () => (statements += 1), onnotice: () => {} });
  counted = drizzle({ client: sql, schema });
});
afterAll(async () => {
  await sql.end();
  await t.close();
});

async function dueSoonRun(): Promise<number> {
  const deps = { ...t.deps, db: counted };
  // The link secret is read once per process; read it before counting.
  await optOutToken(deps, '00000000-0000-0000-0000-000000000000', 'email');
  statements = 0;
  await planDueSoon(deps);
  return statements;
}

describe('planning cost', () => {
  it('a due-soon page of 50 installments takes as many statements as one of 5', async () => {
    const day = daysFromToday(defaultMessageSettings().dueSoonDays);
    for (let i = 0; i < 5; i++) {
      const s = await makeUser(t.deps.db, { role: 'student' });
      await makeEnrollment(t.deps.db, s.id, [{ dueDate: day }]);
    }
    const five = await dueSoonRun();
    expect(await t.deps.db.select().from(messages).where(eq(messages.event, 'installment_due_soon'))).toHaveLength(10);
    for (let i = 0; i < 9; i++) {
      const s = await makeUser(t.deps.db, { role: 'student' });
      await makeEnrollment(t.deps.db, s.id, [
        { dueDate: day },
        { dueDate: day },
        { dueDate: day },
        { dueDate: day },
        { dueDate: day },
      ]);
    }
    const fifty = await dueSoonRun();
    expect(await t.deps.db.select().from(messages).where(eq(messages.event, 'installment_due_soon'))).toHaveLength(100);
    expect(fifty).toBe(five);
    expect(five).toBeLessThan(20);
  });
});

describe('the statement message', () => {
  it('is logged and sent even to a person who opted out of e-mail; the answer is unchanged', async () => {
    const admin = await t.userWithSession('admin');
    const person = await makeUser(t.deps.db, { role: 'student', fullName: 'Opted Out' });
    await t.deps.db.update(users).set({ optOutEmail: true }).where(eq(users.id, person.id));
    const res = await t.api('POST', `/api/users/${person.id}/statement/email`, { token: admin.token, body: {} });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['delivery', 'jobId', 'message']);
    expect(res.body.message).toBe(
      `The statement for ${person.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
    );
    const mail = await waitForEmail(t.deps.db, person.email);
    expect(mail.text).toContain('Dear Opted Out,');
    expect(mail.text).toContain('There is nothing on your account.');
    expect(mail.text).not.toContain('To stop these e-mails');
    const [m] = await t.deps.db.select().from(messages).where(eq(messages.recipientId, person.id));
    expect(m).toMatchObject({
      event: 'statement',
      channel: 'email',
      status: 'sent',
      requested: true,
      entityId: person.id,
    });
    expect(res.body.jobId).toBe(`message:${m!.id}:${m!.sendAt.getTime()}`);
  });
});
