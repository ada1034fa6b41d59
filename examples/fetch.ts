// Plain fetch, no dependency: ask the router which skill to inject, and carry on without one if it cannot say.
// Run: npx tsx examples/fetch.ts "my pod keeps restarting"   (with `router serve` running)
const url = process.env.ROUTER_URL ?? "http://127.0.0.1:8787";
const apiKey = process.env.ROUTER_API_KEY;

interface RouteAnswer {
  decision: "inject" | "none";
  selected: string[];
  skills: { name: string; confidence: number; body?: string }[];
}

/** The instructions to add to the system prompt, or undefined: no skill fits, or no answer within a second. */
async function skillFor(message: string): Promise<{ name: string; body: string } | undefined> {
  try {
    const response = await fetch(`${url}/route`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({ query: message, include: ["body"] }),
      signal: AbortSignal.timeout(1000),
    });
    if (!response.ok) return undefined;
    const answer = (await response.json()) as RouteAnswer;
    const best = answer.skills.find((skill) => skill.name === answer.selected[0]);
    return answer.decision === "inject" && best?.body ? { name: best.name, body: best.body } : undefined;
  } catch {
    return undefined;
  }
}

const message = process.argv[2] ?? "my pod keeps restarting with CrashLoopBackOff";
const skill = await skillFor(message);
const system = ["You are a helpful assistant.", ...(skill ? [`Follow the skill "${skill.name}":\n\n${skill.body}`] : [])].join("\n\n");
console.log(
  JSON.stringify(
    {
      messages: [
        { role: "system", content: system },
        { role: "user", content: message },
      ],
    },
    null,
    2,
  ),
);
