import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RouterStatus } from "../route/router.js";
import type { RouteResult } from "../contract/route.js";

// Routing answers in milliseconds; the top buckets catch model loads, reloads and timeouts.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The Prometheus metrics of one server, in a registry of its own (several servers can share a process). */
export interface ServerMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  requestSeconds: Histogram<"method" | "route" | "status">;
  inFlight: Gauge;
  decisions: Counter<"skill">;
  abstentions: Counter<"reason">;
  indexSkills: Gauge;
  indexVectors: Gauge;
  indexVersion: Gauge;
  indexLoadSeconds: Gauge;
  modelLoadSeconds: Gauge;
  reloads: Counter<"outcome">;
  reindexRuns: Counter<"outcome">;
}

export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({ name: "router_http_requests_total", help: "HTTP requests answered, by endpoint and status", labelNames: ["method", "route", "status"], registers }),
    requestSeconds: new Histogram({
      name: "router_http_request_duration_seconds",
      help: "Time to answer an HTTP request",
      labelNames: ["method", "route", "status"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    inFlight: new Gauge({ name: "router_http_requests_in_flight", help: "HTTP requests being answered now", registers }),
    decisions: new Counter({ name: "router_route_decisions_total", help: "Skills injected by POST /route, by skill", labelNames: ["skill"], registers }),
    abstentions: new Counter({ name: "router_route_abstentions_total", help: "POST /route answers of none, by reason", labelNames: ["reason"], registers }),
    indexSkills: new Gauge({ name: "router_index_skills", help: "Skills in the index being served", registers }),
    indexVectors: new Gauge({ name: "router_index_vectors", help: "Embedded texts (vectors) in the index being served", registers }),
    indexVersion: new Gauge({ name: "router_index_version", help: "Version of the index being served", registers }),
    indexLoadSeconds: new Gauge({ name: "router_index_load_seconds", help: "Time the last index load or reload took", registers }),
    modelLoadSeconds: new Gauge({ name: "router_model_load_seconds", help: "Time loading the query embedding model took", registers }),
    reloads: new Counter({ name: "router_index_reloads_total", help: "Index reloads after `router index` or `router fit` wrote a new version", labelNames: ["outcome"], registers }),
    reindexRuns: new Counter({ name: "router_watch_index_runs_total", help: "Index runs started by --watch", labelNames: ["outcome"], registers }),
  };
}

export function recordIndex(metrics: ServerMetrics, status: RouterStatus, loadSeconds: number): void {
  metrics.indexSkills.set(status.skills);
  metrics.indexVectors.set(status.vectors);
  metrics.indexVersion.set(status.indexVersion);
  metrics.indexLoadSeconds.set(loadSeconds);
}

export function recordDecision(metrics: ServerMetrics, result: RouteResult): void {
  if (result.decision === "inject") for (const skill of result.selected) metrics.decisions.inc({ skill });
  else metrics.abstentions.inc({ reason: result.reason ?? "unknown" });
}
