import type { FeedbackRole } from "../store/feedback-rows.js";
import { calledSkill } from "./called-skill.js";
import { namedNearMiss } from "./near-miss.js";
import type { RouteQuery } from "./query.js";
import { negativePenalty, querySimilarities } from "./signals.js";
import type { Snapshot } from "./snapshot.js";

export interface FeedbackJudgement {
  /** The skill injected instead of the right answer: the request becomes one of its negatives. */
  wrong: string | null;
  role: FeedbackRole;
  note: string;
}

/**
 * What a piece of feedback teaches on this index version. `injected` is what the answer injected (none: null). A
 * request confirmed for a skill becomes its example, unless it matches one of that skill's own near misses (in words
 * or in meaning) more than any of its queries: a skill never learns what its texts say it is not for.
 */
export function judgeFeedback(snapshot: Snapshot, query: RouteQuery, skill: string | null, injected: string | null): FeedbackJudgement {
  // A request that calls a skill by name was never the router's choice: it teaches nothing about routing.
  const called = calledSkill(snapshot.model, query);
  if (called !== undefined) {
    const name = snapshot.model.skills[called]!.name;
    return { wrong: null, role: skill === null ? "none" : "rejected", note: `not learned: it calls ${name} by name, so the router chose nothing` };
  }
  const wrong = injected !== null && injected !== skill ? injected : null;
  const corrects = wrong === null ? "" : `; a negative of ${wrong}, which was injected for it`;
  if (skill === null) return { wrong, role: "none", note: `no skill should answer it${corrects}` };
  const contradicted = nearMissOf(snapshot, query, snapshot.model.byName.get(skill)!);
  if (contradicted !== null) return { wrong, role: "rejected", note: `not learned: it is nearer "${contradicted}", which ${skill}'s texts say is not for it${corrects}` };
  return { wrong, role: "example", note: `an example of ${skill}${corrects}` };
}

/** The skill's negative the request matches more than any of its queries, in words or in meaning; null when none does. */
function nearMissOf({ model }: Snapshot, query: RouteQuery, skill: number): string | null {
  const named = namedNearMiss(model, { skill, heuristicManifest: model.skills[skill]!.heuristicManifest }, query.terms);
  if (named !== null) return model.textString(skill, named);
  if (!query.readable) return null;
  const [own] = model.texts([skill]);
  const similarity = model.compareWith(query.vector);
  const { position } = negativePenalty(own!.negatives, similarity, Math.max(-1, ...querySimilarities(own!.queries, similarity)));
  return position === null ? null : model.textString(skill, position);
}
