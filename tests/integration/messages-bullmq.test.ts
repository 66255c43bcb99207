import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { messages, users } from '../../src/server/db/schema';
import { planMessages } from '../../src/server/domains/messages/plan';
import { storeMessageSettings, defaultMessageSettings } from '../../src/server/domains/messages/settings';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { fakeSmsGateway } from '../helpers/sms-gateway';
import { spawnWorker, stopWorkerProcess } from '../helpers/worker-process';
import { waitFor } from './reminders.fixtures';

/**
 * Exactly once with BullMQ and two `npm run worker` processes, one killed mid-batch (SIGKILL while
 * its sends are in flight): every planned message ends sent, none twice. A send the gateway
 * confirmed is never repeated; one that was in flight when its worker died goes again with the
 * same reference, which the gateway keeps as one delivery.
 */
const redisUrl = inject('redisUrl');
const prefix = `t-${randomBytes(4).toString('hex')}`;
const gateway = fakeSmsGateway();
let gatewayUrl: string;
let t: TestApp;
const workers = new Set<ChildProcess>();

beforeAll(async () => {
  gatewayUrl = await gateway.start();
  t = await startTestApp({ REDIS_URL: redisUrl, JOB_QUEUE_PREFIX: prefix, JOB_STALLED_INTERVAL_MS: 1000 });
  await storeMessageSettings(t.deps.db, { ...defaultMessageSettings(), quietHours: null });
});
afterAll(async () => {
  for (const w of workers) await stopWorkerProcess(w, 'SIGKILL');
  await t.close();
  await gateway.close();
});

async function startWorker(): Promise<ChildProcess> {
  const proc = await spawnWorker({
    DATABASE_URL: t.deps.config.DATABASE_URL!,
    REDIS_URL: redisUrl,
    JOB_QUEUE_PREFIX: prefix,
    JOB_STALLED_INTERVAL_MS: '1000',
    JOB_BACKOFF_MS: '50',
    JOB_CONCURRENCY: '3',
    SMS_GATEWAY_URL: gatewayUrl,
    SMS_GATEWAY_BODY: '{"to":"{to}","text":"{text}","id":"{id}"}',
    SMS_GATEWAY_MESSAGE_ID_PATH: 'data.messageId',
    SMS_GATEWAY_TIMEOUT_MS: '1500',
  });
  workers.add(proc);
  return proc;
}

it('two workers, one killed mid-batch: every message sent, none twice', async () => {
  const [a, b] = [await startWorker(), await startWorker()];
  gateway.behaviour.hold = true;

  const people = await Promise.all(Array.from({ length: 12 }, () => makeUser(t.deps.db, { role: 'customer' })));
  await Promise.all(
    people.map((p, i) =>
      t.deps.db
        .update(users)
        .set({ phone: `+9477555${String(1000 + i)}` })
        .where(inArray(users.id, [p.id])),
    ),
  );
  const entityId = randomUUID();
  await t.deps.db.transaction(async (tx) => {
    for (const p of people)
      await planMessages(tx, t.deps, {
        event: 'appointment_booked',
        recipientId: p.id,
        entityType: 'appointment',
        entityId,
        occasion: entityId,
        sendAt: new Date(),
        vars: { date: '05 Jan 2027', time: '10:30', branch: 'Main' },
        channels: ['sms'],
      });
  });
  // Planning the same batch again (a retried transaction) adds nothing.
  await t.deps.db.transaction(async (tx) => {
    await planMessages(tx, t.deps, {
      event: 'appointment_booked',
      recipientId: people[0]!.id,
      entityType: 'appointment',
      entityId,
      occasion: entityId,
      sendAt: new Date(),
      vars: {},
      channels: ['sms'],
    });
  });
  await t.deps.jobs.flush?.();

  await waitFor(async () => gateway.requests.length >= 4, 'both workers to be mid-send');
  await stopWorkerProcess(a, 'SIGKILL');
  workers.delete(a);
  gateway.behaviour.hold = false;

  const rows = await waitFor(
    async () => {
      const r = await t.deps.db
        .select()
        .from(messages)
        .where(inArray(messages.entityId, [entityId]));
      return r.length === 12 && r.every((m) => m.status === 'sent') ? r : undefined;
    },
    'every message to be sent',
    45_000,
  );

  expect(new Set(rows.map((r) => r.key)).size).toBe(12);
  for (const r of rows) {
    expect(gateway.answered.get(r.key)).toBe(1);
    expect(r.providerId).toBe(gateway.delivered.get(r.key));
  }
  expect(gateway.delivered.size).toBe(12);
  await stopWorkerProcess(b, 'SIGTERM');
  workers.delete(b);
});
