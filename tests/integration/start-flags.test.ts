import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nodeFlagsOf } from '../setup/start-flags';

/*
 * `npm start` and `npm run worker` pass V8 flags to Node (docs/performance.md#production-start).
 * Node refuses to start on a flag it does not know, so a flag renamed or dropped by a Node release
 * would stop the product from starting: this checks the flags against the Node running the tests.
 */
function runNodeWith(flags: string[]) {
  return spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
}

describe('the start scripts’ Node flags', () => {
  it('npm start runs the server with flags this Node accepts', () => {
    const flags = nodeFlagsOf('start', 'dist/server/main.js');
    expect(flags).toContain('--no-allocation-site-pretenuring');
    const run = runNodeWith(flags);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('npm run worker runs the worker with flags this Node accepts', () => {
    const run = runNodeWith(nodeFlagsOf('worker', 'dist/worker/main.js'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a flag Node does not know stops it, which is what the checks above would see', () => {
    const run = runNodeWith(['--no-such-v8-flag-anywhere']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/bad option/);
  });
});
