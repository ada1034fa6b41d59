import path from "node:path";
import { writeFile } from "../helpers/fixtures.js";

/** Six clearly separate skills with example queries, as in the ../shared/eval format. */
export const FIXTURE_SKILLS = [
  {
    name: "weather-forecast",
    description: "Current weather and forecasts for a city: temperature, rain, wind.",
    queries: ["what's the weather in Paris", "will it rain tomorrow in London", "how windy is it in Chicago", "temperature in Tokyo right now", "forecast for Berlin this weekend"],
  },
  {
    name: "currency-converter",
    description: "Convert amounts between currencies at today's exchange rates.",
    queries: ["convert 100 dollars to euros", "how many yen is 50 pounds", "exchange rate from CHF to USD", "what is 20 euros in dollars", "convert GBP to JPY"],
  },
  {
    name: "k8s-debug",
    description: "Debug failing Kubernetes pods: CrashLoopBackOff, ImagePullBackOff, OOMKilled.",
    queries: ["my pod keeps restarting", "kubectl shows CrashLoopBackOff", "pod stuck in ImagePullBackOff", "container got OOMKilled in the cluster", "why is my kubernetes deployment failing"],
  },
  {
    name: "pdf-extract",
    description: "Extract text and tables from PDF files.",
    queries: [
      "pull the tables out of this PDF",
      "extract text from a pdf file",
      "read the invoice pdf and get the totals",
      "convert this PDF to plain text",
      "get the table on page 3 of the report pdf",
    ],
  },
  {
    name: "git-commit",
    description: "Write conventional commit messages from a staged git diff.",
    queries: ["write a commit message for my changes", "commit these staged files", "summarise my git diff as a commit", "help me word this commit", "conventional commit for the bug fix"],
  },
  {
    name: "recipe-finder",
    description: "Find cooking recipes from ingredients you have.",
    queries: ["what can I cook with eggs and spinach", "recipe for a quick pasta dinner", "dessert ideas with chocolate", "vegetarian curry recipe", "how do I make banana bread"],
  },
];

/** Held-out requests: each skill's own, plus requests no skill answers. */
export const FIXTURE_CASES: { query: string; expected: string | null; candidates?: string[] }[] = [
  { query: "is it going to snow in Oslo", expected: "weather-forecast" },
  { query: "temperature in Madrid today", expected: "weather-forecast" },
  { query: "will I need an umbrella in Seattle", expected: "weather-forecast" },
  { query: "how much is 300 euros in dollars", expected: "currency-converter" },
  { query: "convert 75 Canadian dollars to pounds", expected: "currency-converter" },
  { query: "exchange rate between yen and euro", expected: "currency-converter", candidates: ["currency-converter", "weather-forecast"] },
  { query: "pod in CrashLoopBackOff after deploy", expected: "k8s-debug" },
  { query: "kubernetes container keeps getting OOMKilled", expected: "k8s-debug" },
  { query: "kubectl describe shows ImagePullBackOff", expected: "k8s-debug" },
  { query: "extract the tables from this pdf report", expected: "pdf-extract" },
  { query: "get the text out of a scanned PDF", expected: "pdf-extract" },
  { query: "pull totals from the pdf invoice", expected: "pdf-extract", candidates: ["pdf-extract", "git-commit", "recipe-finder"] },
  { query: "write a commit message for this diff", expected: "git-commit" },
  { query: "commit my staged changes with a good message", expected: "git-commit" },
  { query: "conventional commit message for a new feature", expected: "git-commit" },
  { query: "recipe with chicken and rice", expected: "recipe-finder" },
  { query: "what can I bake with apples", expected: "recipe-finder" },
  { query: "easy vegan dinner recipe", expected: "recipe-finder" },
  { query: "tell me a joke", expected: null },
  { query: "who wrote Hamlet", expected: null },
  { query: "good morning!", expected: null },
  { query: "what is the capital of Australia", expected: null },
  { query: "write a haiku about autumn", expected: null },
  { query: "how many legs does a spider have", expected: null, candidates: ["recipe-finder", "weather-forecast"] },
];

/** Writes the eval set, skills with their example queries, as fixture.json. */
export function writeEvalSet(dir: string): string {
  return writeFile(path.join(dir, "fixture.json"), JSON.stringify({ name: "fixture", skills: FIXTURE_SKILLS, cases: FIXTURE_CASES }, null, 2));
}

/** A skill-creator trigger-eval file about pdf-extract. */
export function writeTriggerEvals(dir: string): string {
  const evals = [
    { query: "extract the tables from this pdf report", should_trigger: true },
    { query: "get the text out of a scanned PDF", should_trigger: true },
    { query: "pull totals from the pdf invoice", should_trigger: true },
    { query: "convert 75 Canadian dollars to pounds", should_trigger: false },
    { query: "tell me a joke", should_trigger: false },
    { query: "kubectl describe shows ImagePullBackOff", should_trigger: false },
  ];
  return writeFile(path.join(dir, "evals", "trigger-evals.json"), JSON.stringify(evals, null, 2));
}
