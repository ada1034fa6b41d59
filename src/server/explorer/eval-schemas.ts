import { z } from "@hono/zod-openapi";
import { MAX_EVAL_CASES } from "../../contract/limits.js";

export const evalQuerySchema = z.object({
  split: z.enum(["test", "train", "all"]).optional().openapi({ description: "Which cases to route, as `router eval --split` (default test: the half `router fit` holds out)." }),
});

// Checked in full by src/eval's own reader (runEvalSet), so `router eval` and this endpoint accept the same files.
export const evalSetBodySchema = z.looseObject({}).openapi("EvalSet", {
  description: `An eval set, as \`router eval\` reads it: {"cases": [{"query", "expected": skill name | null, "candidates"?}], "skills"?: ...}; at most ${MAX_EVAL_CASES} cases in the chosen split.`,
  example: {
    cases: [
      { query: "my pod keeps restarting", expected: "k8s-debug" },
      { query: "what is the capital of France?", expected: null },
    ],
  },
});

const share = z.number().openapi({ description: "A share in [0, 1]." });

export const evalRunSchema = z
  .object({
    split: z.enum(["test", "train", "all"]),
    set_cases: z.number().int().openapi({ description: "Cases in the whole set, before the split." }),
    metrics: z
      .object({
        cases: z.number().int(),
        in_scope: z.number().int(),
        no_skill: z.number().int(),
        top1: share,
        recall_at_3: share,
        mrr: share,
        routed: share,
        correct_inject: share,
        abstain_precision: share,
        abstain_recall: share,
        false_trigger: share,
        ece: z.number(),
        latency_ms: z.object({ p50: z.number(), p95: z.number(), p99: z.number() }),
      })
      .openapi({ description: "The metrics `router eval --json` reports." }),
    confusion: z
      .array(z.object({ expected: z.string().nullable(), answered: z.string().nullable(), count: z.number().int(), queries: z.array(z.string()) }))
      .openapi({ description: "Wrong decisions grouped by (expected, answered), most frequent first; null is none." }),
    reliability: z
      .array(z.object({ low: z.number(), high: z.number(), cases: z.number().int(), confidence: z.number().nullable(), accuracy: z.number().nullable() }))
      .openapi({ description: "Ten equal-width bins of the best candidate's confidence, with how often the best candidate was the expected skill." }),
    cases: z.array(
      z.object({
        query: z.string(),
        expected: z.string().nullable(),
        answered: z.string().nullable(),
        top: z.string().nullable(),
        confidence: z.number(),
        reason: z.string().nullable().openapi({ description: "Why none was answered, as in POST /route." }),
      }),
    ),
    index_versions: z.array(z.number().int()).openapi({ description: "More than one when the index was reloaded during the run." }),
    duration_ms: z.number(),
  })
  .openapi("EvalRun");

/** What POST /eval answers, as the explorer's script reads it. */
export type EvalRunResponse = z.infer<typeof evalRunSchema>;
