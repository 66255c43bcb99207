import { afterEach, beforeEach, vi } from 'vitest';

/** A computation that counts its calls and answers the call's number. */
export function counter() {
  let calls = 0;
  const compute = () => Promise.resolve(++calls);
  return { compute, calls: () => calls };
}

/** A computation the test finishes by hand, as a database answer that has not arrived yet. */
export function pending<T>() {
  let finish!: (value: T) => void;
  let fail!: (err: Error) => void;
  let calls = 0;
  const compute = () => {
    calls++;
    return new Promise<T>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { compute, finish: (v: T) => finish(v), fail: (e: Error) => fail(e), calls: () => calls };
}

/** Every test of the file runs on fake timers from one fixed instant, so lifetimes are exact. */
export function useFixedClock(at = new Date('2026-11-26T10:00:00Z')) {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(at);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
