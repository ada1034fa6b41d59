import path from "node:path";
import { runIndex } from "../../src/indexer/run-index.js";
import type { Embedder } from "../../src/models/embedder.js";
import { writeAgentSkill, writeFile } from "./fixtures.js";

/** A small, realistic skill set with clearly separate domains, written and indexed by the tests (by the default embedder unless one is given). */
export async function indexSkillSet(dir: string, embedder?: Embedder): Promise<{ root: string; db: string }> {
  const root = path.join(dir, "skills");
  writeAgentSkill(root, "k8s-debug", {
    description: "Debug failing Kubernetes pods: CrashLoopBackOff, ImagePullBackOff, OOMKilled. Use when a pod keeps restarting or a deployment will not roll out.",
    body: "# Kubernetes debugging\n\n## When to use\nA pod keeps restarting.\n\n## Steps\nRun kubectl describe pod and kubectl logs --previous.\n",
  });
  writeAgentSkill(root, "git-commit-messages", {
    description: "Write conventional commit messages from a staged git diff. Use when the user asks to commit or to write a commit message.",
    body: "# Commit messages\n\nSummarise the staged diff in the imperative.\n",
  });
  writeAgentSkill(root, "pdf-extract", {
    description: "Extract text and tables from PDF files with pdfplumber. Use when the user shares a PDF or asks to pull data out of one. Do not use for Word documents.",
    body: "# PDF extraction\n\nOpen the PDF with pdfplumber and read each page.\n",
  });
  writeAgentSkill(root, "sql-query-review", {
    description: "Speed up slow SQL queries on PostgreSQL: read EXPLAIN ANALYZE plans and add indexes. Use when a database query is slow.",
    body: "# Slow queries\n\nRun EXPLAIN ANALYZE and look for sequential scans.\n",
  });
  writeFile(
    path.join(root, "tools", "weather.json"),
    JSON.stringify([
      {
        type: "function",
        function: {
          name: "get_current_weather",
          description: "Get the current weather for a city: temperature, wind and rain.",
          parameters: { type: "object", properties: { location: { type: "string" } } },
        },
      },
    ]),
  );
  const db = path.join(dir, "router.db");
  await runIndex({ paths: [root], db, ...(embedder ? { embedder } : {}) });
  return { root, db };
}
