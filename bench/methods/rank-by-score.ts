import { EVAL_K } from "../../src/eval/metrics.js";

/**
 * The allowed skills with a positive score, best first (ties: the earlier skill), at most EVAL_K,
 * with the best score. `allowed` lists skill positions; undefined means all.
 */
export function rankByScore(names: string[], scores: ArrayLike<number>, allowed: number[] | undefined): { ranked: string[]; best: number } {
  const pool = allowed ?? names.map((_, index) => index);
  const order = pool.filter((index) => scores[index]! > 0).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const top = order.slice(0, EVAL_K);
  return { ranked: top.map((index) => names[index]!), best: top.length > 0 ? scores[top[0]!]! : 0 };
}

/** Positions of the candidate names (unknown names are ignored); undefined when no restriction. */
export function positionsOf(byName: Map<string, number>, candidates: string[] | undefined): number[] | undefined {
  return candidates?.flatMap((name) => (byName.has(name) ? [byName.get(name)!] : []));
}
