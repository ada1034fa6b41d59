import { createHash } from "node:crypto";

export interface SplitOptions {
  /** Share of cases held out for testing, in (0, 1). */
  testFraction: number;
  seed: string;
}

export const DEFAULT_SPLIT: SplitOptions = { testFraction: 0.5, seed: "skill-router" };

/**
 * A deterministic train/test split by a hash of each query, so the same query always lands on the same
 * side (repeated queries never leak across) and fit and eval agree on it without sharing state.
 */
export function splitCases<T extends { query: string }>(cases: T[], options: SplitOptions = DEFAULT_SPLIT): { train: T[]; test: T[] } {
  const train: T[] = [];
  const test: T[] = [];
  for (const item of cases) (isTestCase(item.query, options) ? test : train).push(item);
  return { train, test };
}

function isTestCase(query: string, options: SplitOptions): boolean {
  const hash = createHash("sha256").update(`${options.seed}\u0000${query}`).digest();
  return hash.readUInt32BE(0) / 0x1_0000_0000 < options.testFraction;
}
