import { describe, expect, it } from "vitest";
import type { ExpansionSubject } from "../../src/expand/expansion-subject.js";
import { heuristicManifest } from "../../src/expand/heuristic-expander.js";
import { manifestSchema } from "../../src/expand/manifest.js";

const k8sDebug: ExpansionSubject = {
  id: "k8s",
  name: "k8s-debug",
  kind: "skill",
  contentHash: "h",
  description:
    "Diagnose failing Kubernetes workloads - pods stuck in CrashLoopBackOff or OOMKilled - with kubectl. Use when the user asks to 'check pod logs', 'restart a deployment', or debug a service with no endpoints. Not for writing Helm charts.",
  body: [
    "# Debugging Kubernetes",
    "## When to use",
    "- A rollout is stuck and never finishes",
    "- A Service answers with connection refused",
    "## When not to use",
    "- Provisioning a new cluster from scratch",
    "## Steps",
    "```sh",
    "kubectl describe pod my-pod",
    "```",
    "## Reading liveness probes",
    "Probes restart slow apps.",
  ].join("\n"),
  metadata: {},
};

const weatherTool: ExpansionSubject = {
  id: "w",
  name: "weather__get_current_weather",
  kind: "tool",
  contentHash: "h",
  description: "Retrieves the current weather for a location.",
  body: "{}",
  metadata: {
    toolName: "get_current_weather",
    server: "weather",
    parameters: { type: "object", properties: { location: { type: "string", description: "City and country" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["location"] },
  },
};

describe("heuristic expander", () => {
  it("is deterministic and always fits the manifest schema", () => {
    for (const subject of [k8sDebug, weatherTool, { ...weatherTool, description: "", metadata: {} }]) {
      const manifest = heuristicManifest(subject);
      expect(heuristicManifest(structuredClone(subject))).toEqual(manifest);
      expect(manifestSchema.parse(manifest)).toEqual(manifest);
      expect(manifest.queries.length).toBeGreaterThan(0);
    }
  });

  it("draws queries from quoted triggers, use-when clauses and sections, and the description", () => {
    const { queries } = heuristicManifest(k8sDebug);
    expect(queries).toEqual(expect.arrayContaining(["check pod logs", "restart a deployment", "A rollout is stuck and never finishes", "Diagnose failing Kubernetes workloads"]));
    expect(queries).toContain("reading liveness probes k8s debug");
    expect(queries.join("\n")).not.toMatch(/Helm|Provisioning/);
  });

  it("puts not-for sentences and sections into negatives, never into queries", () => {
    const manifest = heuristicManifest(k8sDebug);
    expect(manifest.negatives).toEqual(["writing Helm charts", "Provisioning a new cluster from scratch"]);
    expect(manifest.negative_constraint).toBe("Not for: writing Helm charts; Provisioning a new cluster from scratch");
  });

  it("keeps technical terms whole and ranks them and the name first", () => {
    const { keywords } = heuristicManifest(k8sDebug);
    expect(keywords.slice(0, 6)).toEqual(expect.arrayContaining(["k8s", "debug", "crashloopbackoff", "oomkilled"]));
    expect(keywords).not.toContain("back");
  });

  it("reads tool names, parameter names, enum values and the verb as a request", () => {
    const manifest = heuristicManifest(weatherTool);
    expect(manifest.queries).toEqual(expect.arrayContaining(["retrieve the current weather for a location", "get current weather"]));
    expect(manifest.keywords).toEqual(expect.arrayContaining(["weather", "location", "celsius", "fahrenheit"]));
    expect(manifest.category).toBe("weather");
  });
});
