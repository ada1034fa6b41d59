// The typed client: route a message, inject what the router picks or show the list it offers when it is not sure, and
// fall back cleanly when it cannot answer.
// Run: npx tsx examples/client.ts "my pod keeps restarting"   (with `router serve` running; ROUTER_URL to point elsewhere)
import { createRouterClient, offerText, type RouteOutcome } from "skill-router/client";

const router = createRouterClient({ timeoutMs: 1000, retries: 1 });
const message = process.argv[2] ?? "my pod keeps restarting with CrashLoopBackOff";

// route() never throws: when the router is down, slow or refuses, it answers "none" with the error attached.
const result: RouteOutcome = await router.route(message, { include: ["body"] });

if ("error" in result) {
  console.log(`no skill (${result.reason}: ${result.error.code}); answering without one`);
} else if (result.decision === "inject") {
  for (const name of result.selected) {
    const skill = result.skills.find((candidate) => candidate.name === name)!;
    console.log(`inject ${name} (confidence ${skill.confidence.toFixed(2)}, ${skill.tokens} tokens)`);
    console.log(skill.body);
  }
} else if (result.decision === "offer" && result.offer) {
  // The agent's choice: give it the list (offerText writes it) and load the one it picks with router.skill(name).
  console.log(`offer ${result.offer.skills.map((skill) => skill.name).join(", ")} (${result.offer.tokens} tokens):`);
  console.log(offerText(result.offer.skills, "with your skill-loading tool"));
} else {
  const best = result.skills[0];
  console.log(`no skill fits (${result.reason})${best ? `; closest was ${best.name} at ${best.confidence.toFixed(2)}` : ""}`);
}
