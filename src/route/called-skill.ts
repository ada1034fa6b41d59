import type { RouteQuery } from "./query.js";
import type { RouteModel } from "./route-model.js";

/**
 * The skill a message calls: the first `$name` or leading `/name` that is a skill here and `callable`, else a skill
 * used only when called by name whose bare name the message holds. Routing and feedback judgement share it, so they
 * agree on what a call is.
 */
export function calledSkill(model: RouteModel, query: Pick<RouteQuery, "wanted" | "calls">, callable: (skill: number) => boolean = () => true): number | undefined {
  for (const name of query.calls ?? []) {
    const skill = model.byName.get(name);
    if (skill !== undefined && callable(skill)) return skill;
  }
  const named = namedExplicitSkill(model, query.wanted);
  return named !== undefined && callable(named) ? named : undefined;
}

/**
 * A skill used only when called by name whose name the message holds as a word of its own (case aside). `wanted` has
 * the spans the message declines blanked out: "don't use savepoint" calls nothing, as "don't use $savepoint" does not.
 */
function namedExplicitSkill(model: RouteModel, wanted: string): number | undefined {
  if (model.explicitOnlySkills.length === 0) return undefined;
  const lower = wanted.toLowerCase();
  return model.explicitOnlySkills.find((skill) => {
    const name = model.skills[skill]!.name.toLowerCase();
    for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
      if (!/[\w-]/.test(lower[at - 1] ?? " ") && !/[\w-]/.test(lower[at + name.length] ?? " ")) return true;
    }
    return false;
  });
}
