/**
 * The part of autocannon 9's API the load bench uses (the package ships no types; its
 * options and result are documented in its README). Only what `load-bench.ts` reads.
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  /** One request of the sequence; `setupRequest` may rewrite it per call. */
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (
      request: AutocannonRequest,
      context: Record<string, unknown>,
    ) => AutocannonRequest;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  /** One connection (`setupClient` receives it). */
  export interface AutocannonClient extends EventEmitter {
    setHeaders(headers: Record<string, string>): void;
    /** Requests written so far. */
    reqsMade: number;
    /** Once `reqsMade` reaches it, the connection ends after its answer (`done`). */
    responseMax?: number;
    /** A place the bench keeps the connection's token name (its own field). */
    loreTag?: string;
  }

  export interface AutocannonOptions {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    /** Seconds before a request times out (default 10). */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    setupClient?: (client: AutocannonClient) => void;
  }

  /** A histogram summary: ms for latency, requests per second for requests. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
    sent?: number;
  }

  export interface AutocannonResult {
    latency: Histogram;
    requests: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "2xx": number;
    "4xx": number;
    "5xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** The running instance: `response` events (client, status, bytes, ms) while it runs. */
  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): Instance;
}
