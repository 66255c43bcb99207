/**
 * The measured requests: what the screens and the documented REST clients send. tRPC calls go
 * as the client sends them (httpBatchLink: `?batch=1`, one call per request here).
 */
import type { BenchData } from './data';

export interface BenchPath {
  /** Short name used in the table and in BENCH_PATHS. */
  name: string;
  api: 'REST' | 'tRPC';
  /** A screen's list page or detail (the p99 target at 50 connections), a whole list, a count, a write. */
  kind: 'page' | 'detail' | 'all' | 'statistics' | 'write' | 'health';
  method: 'GET' | 'POST';
  /** Path and query of each request (the write alternates bodies instead). */
  url: string;
  /** For the write: the next request's url and body, called once per request sent. */
  next?: () => { url: string; body: string };
}

/** The anonymous health check: the embedded mode's reference rate. */
export const healthPath: BenchPath = {
  name: 'health (anonymous)',
  api: 'REST',
  kind: 'health',
  method: 'GET',
  url: '/api/health',
};

export const trpcUrl = (procedure: string, input: unknown) =>
  `/trpc/${procedure}?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`;

export function benchPaths(data: BenchData): BenchPath[] {
  // Each request toggles the first instalment of the next enrolment of the pool: paid, unpaid,
  // paid... Consecutive requests touch different enrolments, so concurrent ones never wait on
  // each other's row lock (the pool is far larger than the connection count).
  let i = 0;
  const toggle = () => {
    const t = data.toggles[i++ % data.toggles.length]!;
    t.isPaid = !t.isPaid;
    return {
      url: `/api/enrollments/${t.id}/pay-installment`,
      body: JSON.stringify({ installmentIndex: 0, isPaid: t.isPaid }),
    };
  };
  return [
    { name: 'users REST', api: 'REST', kind: 'all', method: 'GET', url: '/api/users' },
    {
      name: 'users.list p1',
      api: 'tRPC',
      kind: 'page',
      method: 'GET',
      url: trpcUrl('users.list', { page: 1, pageSize: 25 }),
    },
    {
      name: 'enrollments.list p1',
      api: 'tRPC',
      kind: 'page',
      method: 'GET',
      url: trpcUrl('enrollments.list', { page: 1, pageSize: 25 }),
    },
    {
      name: 'enrollments.list Pending Payment',
      api: 'tRPC',
      kind: 'page',
      method: 'GET',
      url: trpcUrl('enrollments.list', { page: 1, pageSize: 25, displayStatus: 'Pending Payment' }),
    },
    {
      name: 'bookings.list overdue',
      api: 'tRPC',
      kind: 'page',
      method: 'GET',
      url: trpcUrl('bookings.list', { page: 1, pageSize: 25, paymentStatus: 'overdue' }),
    },
    {
      name: 'enrolment statistics REST',
      api: 'REST',
      kind: 'statistics',
      method: 'GET',
      url: '/api/enrollments/statistics',
    },
    {
      name: 'enrolment by id REST',
      api: 'REST',
      kind: 'detail',
      method: 'GET',
      url: `/api/enrollments/${data.enrollmentId}`,
    },
    {
      name: 'instalment toggle REST',
      api: 'REST',
      kind: 'write',
      method: 'POST',
      url: '/api/enrollments/:id/pay-installment',
      next: toggle,
    },
  ];
}
