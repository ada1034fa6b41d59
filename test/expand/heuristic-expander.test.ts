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
    expect(queries.join("\n")).not.toMatch(/Helm|Provisioning/);
  });

  it("keeps topic headings as phrases, not as made-up queries", () => {
    const manifest = heuristicManifest(k8sDebug);
    expect(manifest.phrases).toContain("reading liveness probes");
    expect(manifest.queries.join("\n")).not.toMatch(/liveness/);
  });

  it("keeps a phrase only when it has two words that say something; a lone word, a heading's emoji or numbering are no phrase", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "git-commit-messages",
      description: "Write clear git commit messages. Use when the user asks to commit, to write or improve a commit message.",
      body: ["# Commit messages", "## Format", "Imperative summary.", "## ⚙️ Setup", "Install the hook.", "## 2. Staged diffs", "Read them first."].join("\n"),
    });
    expect(manifest.phrases).toEqual(expect.arrayContaining(["improve a commit message", "staged diffs"]));
    expect(manifest.phrases).not.toEqual(expect.arrayContaining(["to write"]));
    expect(manifest.phrases.filter((phrase) => /format|setup/.test(phrase))).toEqual([]);
    // The words stay keywords: one of them in a message is one keyword hit, not a phrase hit as well.
    expect(manifest.keywords).toEqual(expect.arrayContaining(["write", "format"]));
  });

  // Shaped on Anthropic's skill-creator, whose body teaches how to write other skills' triggers.
  it("takes body triggers only where they name this skill, not from examples, quotations or topic headings", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "skill-author",
      description: "Create new skills and measure how well they trigger.",
      body: [
        "## Interview",
        "Check available MCPs - if useful for research (searching docs, finding similar skills), research in parallel.",
        "Use this skill when a team wants to package its review checklist as a skill.",
        '- **description**: All "when to use" info goes here, not in the body. Instead of "How to build a dashboard.", write "How to build a dashboard. Make sure to use this skill whenever the user mentions dashboards or metrics."',
        "### Step 1: Generate trigger eval queries",
        'Bad: `"Format this data"`, `"Extract text from PDF"`',
      ].join("\n"),
    });
    expect(manifest.queries).toContain("a team wants to package its review checklist as a skill");
    expect(heuristicManifest({ ...k8sDebug, description: 'This skill should be used when the user asks to "check pod logs", "restart a deployment".', body: "" }).queries).toEqual([
      "check pod logs",
      "restart a deployment",
      "k8s debug",
    ]);
    // The words before a cue are no request.
    expect(heuristicManifest({ ...k8sDebug, description: "Claude should use this skill whenever a pod keeps restarting.", body: "" }).queries).toEqual(["a pod keeps restarting", "k8s debug"]);
    expect(manifest.queries.join("\n")).not.toMatch(/research|info goes here|dashboards|Format this data|Extract text/);
  });

  it("reads triggers and exclusions in Chinese and Spanish, and never turns an exclusion into a query", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "informe-ventas",
      description: "Genera informes de ventas trimestrales. Usar cuando el usuario pide un resumen de ventas por región. NO usar para: facturas, nóminas.",
      body: ["## 使用场景", "- 生成季度销售报告和区域对比", "## 不要", "- 不要用于个人记账"].join("\n"),
    });
    expect(manifest.queries).toEqual(expect.arrayContaining(["el usuario pide un resumen de ventas por región", "生成季度销售报告和区域对比"]));
    expect(manifest.negatives).toEqual(expect.arrayContaining(["facturas, nóminas", "个人记账"]));
    expect(manifest.queries.join("\n")).not.toMatch(/facturas|记账/);
  });

  it("reads a quoted list's items without their quotes and commas", () => {
    const { queries } = heuristicManifest({
      ...k8sDebug,
      name: "referral-program",
      description: "Design referral programs. Use when they mention 'referral program,' 'refer a friend,' or when the user says \"write tests\", \"add tests for\".",
      body: "",
    });
    expect(queries).toEqual([
      "referral program",
      "refer a friend",
      "write tests",
      "add tests for",
      `they mention 'referral program,' 'refer a friend,' or when the user says "write tests", "add tests for"`,
      "Design referral programs",
    ]);
  });

  // Shaped on the marketing skills copied across the corpus (ab-test-setup, launch-strategy).
  it('reads "the user mentions" lists as their quoted requests, and "For X, see other-skill" as an exclusion', () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "ab-test-setup",
      description: 'When the user wants to plan an A/B test. Also use when the user mentions "A/B test," "split test," or "hypothesis." For tracking implementation, see analytics-tracking.',
      body: "",
    });
    expect(manifest.queries).toEqual(["A/B test", "split test", "hypothesis", "When the user wants to plan an A/B test", "ab test setup"]);
    expect(manifest.phrases.filter((phrase) => /user|["',]/.test(phrase))).toEqual([]);
    expect(manifest.negatives).toEqual(["tracking implementation"]);
    expect(manifest.keywords.filter((word) => /tracking|implementation|analytics|mention/.test(word))).toEqual([]);
  });

  it("reads the request after a list of quoted ones, and keeps a quotation inside a sentence as the sentence", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "unifi",
      description:
        'Query and monitor a UniFi network. Use when the user asks to "check UniFi", "list UniFi devices", or mentions UniFi monitoring/status. Also use for "CORS blocked" errors in the console.',
      body: "",
    });
    expect(manifest.queries).toEqual(expect.arrayContaining(["check UniFi", "list UniFi devices", "UniFi monitoring/status", '"CORS blocked" errors in the console']));
    expect(manifest.queries.filter((query) => query.includes('", "') || query.startsWith("mentions"))).toEqual([]);
  });

  it('reads "Triggers:" lists, and apostrophes inside a double-quoted request', () => {
    const { queries } = heuristicManifest({
      ...k8sDebug,
      name: "network-monitor",
      description: 'Query the home network. Use when asked to "show who\'s on the network". Triggers: remove device, block client.',
      body: "",
    });
    expect(queries).toEqual(expect.arrayContaining(["show who's on the network", "remove device", "block client"]));
    expect(queries.join("\n")).not.toMatch(/Triggers/);
  });

  // Shaped on openclaw's adhd-daily-planner and the API skills of the corpus.
  it("reads an anti-pattern item as its head, and takes no keywords from code, links, file names or words in capitals for emphasis", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "daily-planner",
      description: "Specializes in realistic time estimation for ADHD brains.",
      body: [
        "## Anti-Patterns (Things That Don't Work)",
        "- **Detailed long-term planning** - You'll abandon it. Write it down.",
        "## Setup",
        "CRITICAL: ALWAYS read SOUL.md first and write dates as YYYY-MM-DD. Export to SQL when asked.",
        "```sh",
        'curl -X POST https://api.example.com/v2/plan -d \'{"id": "abc123"}\'',
        "```",
      ].join("\n"),
    });
    expect(manifest.queries[0]).toBe("specialize in realistic time estimation for ADHD brains");
    expect(manifest.negatives).toEqual(["Detailed long-term planning"]);
    expect(manifest.keywords).toEqual(expect.arrayContaining(["adhd", "sql"]));
    expect(manifest.keywords.filter((word) => /critical|always|soul|yyyy|post|https|example|abc123|v2/.test(word))).toEqual([]);
  });

  it("reads a labelled list by its label: exceptions and don't-use lists are exclusions, use-this-skill lists are triggers", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "test-driven-development",
      description: "Use when implementing any feature or bugfix, before writing implementation code",
      body: [
        "## When to Use",
        "**Always:**",
        "- New features",
        "- Behavior changes",
        "",
        "**Exceptions (ask your human partner):**",
        "- Throwaway prototypes",
        "- Generated code",
        "## Overview",
        "Use this skill when:",
        "- reviewing a pull request for missing tests",
        "Do not activate this skill for:",
        "- Configuration files only",
        "## Common Use Cases",
        "**Quick file preview:**",
        "```sh",
        "bat README.md",
        "```",
        "## Closures",
        "**Common use cases:**",
        "- Data privacy with closures",
      ].join("\n"),
    });
    expect(manifest.queries).toEqual(expect.arrayContaining(["New features", "Behavior changes", "reviewing a pull request for missing tests", "Quick file preview"]));
    expect(manifest.negatives).toEqual(["Throwaway prototypes", "Generated code", "Configuration files only"]);
    // A label over a list names it (one over a code block is all the text there, so it stays), and "Common use cases" in
    // a section on closures lists uses of closures.
    expect(manifest.queries.filter((query) => /always|exceptions|use this skill|activate|closures/i.test(query))).toEqual([]);
  });

  it('reads "不要求" (does not require) as no exclusion', () => {
    const manifest = heuristicManifest({ ...k8sDebug, name: "disk-audit", description: "审计 Windows 系统盘的空间占用。不要求填写固定字段，默认只读。", body: "" });
    expect(manifest.negatives).toEqual([]);
    expect(manifest.queries.join("\n")).toMatch(/默认只读/);
  });

  it("keeps product names whole and leaves out the words of a skill folder's layout and files", () => {
    const { keywords } = heuristicManifest({
      ...k8sDebug,
      name: "tui-builder",
      description: "Build terminal user interfaces with Ratatui, Textual or Ink.",
      body: "See `references/widgets.md` and `resources/implementation-playbook.md`, run `scripts/new_app.py`, and check `package.json`.",
    });
    expect(keywords).toEqual(expect.arrayContaining(["ratatui", "textual", "ink", "package", "json"]));
    expect(keywords.filter((word) => /references|resources|implementation|playbook|scripts|app/.test(word))).toEqual([]);
  });

  it("puts not-for sentences and sections into negatives, never into queries", () => {
    const manifest = heuristicManifest(k8sDebug);
    expect(manifest.negatives).toEqual(["writing Helm charts", "Provisioning a new cluster from scratch"]);
    expect(manifest.negative_constraint).toBe("Not for: writing Helm charts; Provisioning a new cluster from scratch");
  });

  // Shaped on trigger-dev's savepoint and jong-coolify-deploy: one sentence lists everything a skill is not for.
  it("reads an exclusion that is a list as one near miss per item, so each can be the nearest", () => {
    const manifest = heuristicManifest({
      ...k8sDebug,
      name: "savepoint",
      description: "Recoverable coding-session checkpoints. Not for SQL SAVEPOINT, ordinary summaries, session rotation, or app features named savepoint. Do not use it for Helm charts.",
      body: "",
    });
    expect(manifest.negatives).toEqual(["SQL SAVEPOINT", "ordinary summaries", "session rotation", "app features named savepoint", "Helm charts"]);
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
