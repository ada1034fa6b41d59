// autocannon ships no type declarations; these cover the programmatic use in bench/http-load.ts.
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
  }
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    requests?: (RawRequest & { setupRequest?: (request: RawRequest) => RawRequest })[];
  }
  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  }
  /** The running benchmark: awaitable for its result, and an emitter of each response (responseTime in ms, unrounded). */
  type Instance = Promise<Result> & { on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
