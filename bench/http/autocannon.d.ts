// The parts of autocannon's API the HTTP benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface RequestSpec {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    setupRequest?: (req: RequestSpec, context: object) => RequestSpec;
  }
  interface Options {
    url: string | string[];
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
  }
  interface Result {
    duration: number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Instance extends Promise<Result> {
    stop(): void;
    /** Every answer: the connection (one object per connection), its status, size and wait in ms. */
    on(event: 'response', listener: (client: object, status: number, bytes: number, ms: number) => void): unknown;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
