import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { measureShareScale } from "../../src/calibrate/measure-share-scale.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { createEmbedder } from "../../src/models/create-embedder.js";
import { queryEncoderOver } from "../../src/models/query-encoder.js";
import { DEFAULT_PARAMS, paramsFor } from "../../src/route/index-params.js";
import { shareScaleRecord } from "../../src/store/share-scale.js";
import { createRouter } from "../../src/route/router.js";
import { openIndexForRead, openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { tempDir, writeFile } from "../helpers/fixtures.js";

// Twenty-four unrelated domains, each with three requests a user might type.
const DOMAINS: [string, string, string[]][] = [
  ["weather-forecast", "Weather forecasts and current conditions for any city.", ["will it rain in Lisbon tomorrow", "how hot will it be this weekend", "is it snowing in Denver right now"]],
  ["recipe-planner", "Plan meals and find recipes from ingredients at hand.", ["what can I cook with eggs and spinach", "plan my dinners for the week", "a vegetarian lasagna recipe"]],
  ["flight-search", "Search and compare airline flights by price and stops.", ["cheapest flight from Paris to Rome in May", "nonstop flights to Tokyo", "compare fares to New York next Friday"]],
  ["invoice-builder", "Create PDF invoices with line items, tax and due dates.", ["make an invoice for 10 hours of consulting", "add VAT to my client invoice", "send an invoice due in 30 days"]],
  ["regex-tester", "Build and test regular expressions against sample text.", ["a regex that matches email addresses", "why does my regex not match digits", "test this pattern against these lines"]],
  ["docker-helper", "Write and fix Dockerfiles and docker-compose services.", ["my container exits right after starting", "shrink this Docker image", "add a postgres service to docker-compose"]],
  ["sql-review", "Review SQL queries for correctness and speed.", ["why is this join so slow", "add an index for this query", "is this GROUP BY correct"]],
  ["git-commits", "Write clear git commit messages from a diff.", ["write a commit message for these changes", "squash my last three commits", "reword the previous commit"]],
  ["tax-deadlines", "Explain income tax filing deadlines and extensions.", ["when is the tax filing deadline", "can I get an extension on my taxes", "what happens if I file taxes late"]],
  ["workout-coach", "Build workout plans for strength and running.", ["a three day strength training plan", "how do I train for a 10k run", "stretches after running"]],
  ["music-theory", "Explain chords, scales and harmony for musicians.", ["what notes are in a D minor chord", "explain the circle of fifths", "which scale fits this chord progression"]],
  ["translator", "Translate text between languages, keeping the tone.", ["translate this email into German", "how do you say good morning in Japanese", "translate this paragraph to French formally"]],
  ["garden-care", "Care for houseplants and vegetable gardens.", ["why are my tomato leaves turning yellow", "how often should I water a cactus", "when to plant garlic"]],
  ["budget-tracker", "Track personal spending and build a monthly budget.", ["help me make a monthly budget", "how much did I spend on food", "set a savings goal for a car"]],
  ["resume-writer", "Write and improve resumes and cover letters.", ["improve my resume summary", "write a cover letter for a nursing job", "list my skills on a CV"]],
  ["unit-converter", "Convert units of length, weight and temperature.", ["convert 5 miles to kilometres", "how many grams in a pound", "350 Fahrenheit in Celsius"]],
  ["pet-health", "Advice on dog and cat health and behaviour.", ["my dog keeps scratching his ears", "is chocolate toxic to cats", "how often to deworm a puppy"]],
  ["car-maintenance", "Car maintenance schedules and warning lights.", ["when should I change my oil", "the check engine light is on", "how to check tyre pressure"]],
  ["poetry-writer", "Write poems in a chosen form and mood.", ["write a haiku about autumn", "a sonnet for my wife's birthday", "a funny limerick about a cat"]],
  ["chess-coach", "Teach chess openings, tactics and endgames.", ["explain the Sicilian defence", "how do I checkmate with a rook", "find the best move in this position"]],
  ["kubernetes-debug", "Debug Kubernetes pods, deployments and services.", ["my pod is in CrashLoopBackOff", "kubectl logs shows nothing", "service not reachable inside the cluster"]],
  ["photo-editing", "Edit photos: exposure, colour, cropping.", ["brighten this underexposed photo", "remove red eye from a picture", "crop this image to a square"]],
  ["travel-visa", "Visa requirements and entry rules by country.", ["do I need a visa for Japan", "how long can I stay in Schengen", "passport validity rules for Thailand"]],
  ["sleep-coach", "Improve sleep habits and routines.", ["I cannot fall asleep at night", "how much sleep do I need", "a bedtime routine for better sleep"]],
];

/** An eval-set file of the domains, each skill's middle request taken from `middle(index)`. */
function writeSet(dir: string, middle: (index: number) => string): string {
  const skills = DOMAINS.map(([name, description, queries], index) => ({ name, description, queries: [queries[0]!, middle(index), queries[2]!] }));
  return writeFile(path.join(dir, "set.json"), JSON.stringify({ name: "domains", skills, cases: [] }));
}

/** Everything routing reads of an index, hashed: texts, vectors, manifests and routing data. */
function indexContents(db: IndexDatabase): string {
  const hash = createHash("sha256");
  for (const table of ["texts", "skill_vectors", "manifests", "routing_data"]) hash.update(JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
  return hash.digest("hex");
}

describe("the share scale router index measures on requests held out of their skills", () => {
  it("is measured with no labels, stored in the index and applied to the defaults", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    const summary = await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[index]![2][1]!)], db });
    expect(summary.shareScale).toBeDefined();
    const { scale, samples, rankedFirst } = summary.shareScale!;
    expect(samples).toBe(24);
    // Each held-out request is plainly its own domain's.
    expect(rankedFirst).toBeGreaterThan(0.9);
    expect(scale).toBeGreaterThanOrEqual(0.3);
    expect(scale).toBeLessThanOrEqual(1);
    const index = openIndexForRead(db);
    expect(shareScaleRecord.read(index)).toEqual({ scale, samples, rankedFirst, indexVersion: summary.indexVersion });
    expect(paramsFor(index, summary.embedder ?? null).shareScale).toBe(scale);
    index.close();
  });

  it("holds each request out for real, and leaves the index as it was", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    // Every skill's middle request is the next domain's: held out, it must rank that other skill first.
    await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[(index + 1) % DOMAINS.length]![2][1]!)], db });
    const writer = openIndexForWrite(db);
    const embedder = await createEmbedder();
    try {
      const before = indexContents(writer);
      const measured = await measureShareScale(writer, queryEncoderOver(embedder, 100), DEFAULT_PARAMS);
      expect(measured!.rankedFirst).toBeLessThan(0.2);
      // Shares that put the wrong skill first are most likely when flattest.
      expect(measured!.scale).toBe(0.3);
      expect(indexContents(writer)).toBe(before);
    } finally {
      await embedder.close();
      writer.close();
    }
  });

  it("flattens the confidences of the index's defaults, and only theirs", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[index]![2][1]!)], db });
    const query = "is it going to rain in Porto this afternoon";
    const shareWith = async (scale: number, params?: typeof DEFAULT_PARAMS) => {
      const writer = openIndexForWrite(db);
      shareScaleRecord.write(writer, { scale, samples: 24, rankedFirst: 1, indexVersion: 1 });
      writer.close();
      const router = await createRouter({ db, ...(params ? { params } : {}) });
      try {
        const [best] = (await router.route(query)).skills;
        expect(best!.name).toBe("weather-forecast");
        return best!.share;
      } finally {
        await router.close();
      }
    };
    expect(await shareWith(0.5)).toBeLessThan(await shareWith(1));
    // Parameters given explicitly (as `router fit` stores them) keep their own shares.
    expect(await shareWith(0.5, DEFAULT_PARAMS)).toBe(await shareWith(1, DEFAULT_PARAMS));
  });
});
