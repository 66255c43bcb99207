/**
 * CPU time of processes from /proc, for the benchmarks that compare CPU per answer or per row
 * (bench/http/cpu.ts, bench/reports-cpu.ts): user + system, in milliseconds.
 */
import fs from 'node:fs';
import type postgres from 'postgres';

/** The fields of /proc/<pid>/stat after the command's closing parenthesis: the state first, then the parent's pid. */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime and stime, the 12th and 13th of those fields, in clock ticks. */
function ticksOf(pid: number | string): number {
  const f = statFields(pid);
  return Number(f[11]) + Number(f[12]);
}

/** One process's CPU so far. USER_HZ is 100 on Linux: a tick is 10 ms. */
export function processCpuMs(pid: number): number {
  return ticksOf(pid) * 10;
}

/** The PostgreSQL server's CPU so far: its backends and helpers, the children of `postmaster`. */
export function postgresCpuMs(postmaster: number): number {
  let ticks = 0;
  for (const task of fs.readdirSync(`/proc/${postmaster}/task`)) {
    const children = fs.readFileSync(`/proc/${postmaster}/task/${task}/children`, 'utf8').trim().split(/\s+/);
    for (const pid of children.filter(Boolean)) {
      try {
        ticks += ticksOf(pid);
      } catch {
        /* ended meanwhile */
      }
    }
  }
  return ticks * 10;
}

/** The postmaster's pid, found from a backend's parent (the server runs on this machine). */
export async function postmasterOf(sql: postgres.Sql): Promise<number> {
  const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  return Number(statFields(backend!.pid)[1]);
}
