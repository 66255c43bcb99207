import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './queue';

/**
 * Placeholder until the job worker issue lands: accepts jobs and logs them.
 * Replaced by the in-process driver that runs the same handlers as the BullMQ worker.
 */
export function createInProcessQueue(log: FastifyBaseLogger): JobQueue {
  let n = 0;
  return {
    async enqueue(name, payload) {
      n += 1;
      log.info({ job: name, payload }, 'job accepted (in-process)');
      return { id: String(n) };
    },
    async close() {},
  };
}
