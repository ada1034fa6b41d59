import { z } from "zod";
import { descriptionProblem, TOOL_DESCRIPTION_MAX, toolNameProblem } from "./validate.js";

/** A value checked by one of the hand-written field rules (validate.ts), failing with the rule's own message. */
const ruled = (problem: (value: unknown) => string | undefined) =>
  z.custom<string>().superRefine((value, context) => {
    const reason = problem(value);
    if (reason) context.addIssue({ code: "custom", message: reason });
  });

/** A skill of an eval set: indexed as a tool when it has parameters, its queries kept as example requests. */
export const evalSkillSchema = z.object(
  {
    name: ruled(toolNameProblem),
    description: ruled((description) => descriptionProblem(description, TOOL_DESCRIPTION_MAX)),
    queries: z.array(z.string({ error: "'queries' must be a list of strings" }), { error: "'queries' must be a list of strings" }).optional(),
    parameters: z.record(z.string(), z.unknown(), { error: "'parameters' must be a JSON object (a JSON schema)" }).optional(),
  },
  { error: "skill entry is not a JSON object" },
);

export const evalCaseSchema = z.object({
  query: z.string().refine((query) => query.trim() !== "", "a case's query is empty"),
  expected: z.string().nullable(),
  candidates: z.array(z.string()).optional(),
});

/**
 * The labelled evaluation-set format of ../shared/eval (see its README.md), read by `router eval`, `router fit` and
 * POST /eval for its cases, and by `router index` (skills/eval-set.ts) for its skills.
 */
export const evalSetSchema = z.object({
  name: z.string().optional(),
  skills: z.array(evalSkillSchema).optional(),
  cases: z.array(evalCaseSchema),
});

export type EvalSet = z.infer<typeof evalSetSchema>;
export type EvalSkill = z.infer<typeof evalSkillSchema>;
export type EvalCase = z.infer<typeof evalCaseSchema>;
