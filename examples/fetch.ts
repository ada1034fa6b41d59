// Plain fetch, no dependency: ask the router which skill the request needs, and carry on without one if it cannot say.
// The router answers inject (add the skill's instructions), offer (it is not sure: show the model the short list and a
// tool that loads one; the model chooses) or none.
// Run: npx tsx examples/fetch.ts "my pod keeps restarting" [skill-the-model-chose]   (with `router serve` running)
const url = process.env.ROUTER_URL ?? "http://127.0.0.1:8787";
const headers = { "content-type": "application/json", ...(process.env.ROUTER_API_KEY ? { authorization: `Bearer ${process.env.ROUTER_API_KEY}` } : {}) };

interface RouteAnswer {
  decision: "inject" | "offer" | "none";
  selected: string[];
  offer: { text: string; skills: { name: string }[] } | null;
  skills: { name: string; body?: string }[];
}

/** What the answer adds to the model's request: a skill's instructions, or a list and a tool that loads one from it. */
interface Added {
  system?: string;
  tools?: object[];
}

/** Step one: route the message (nothing is added when no skill fits or the router does not answer within a second). */
async function addedFor(message: string): Promise<Added> {
  try {
    const response = await fetch(`${url}/route`, { method: "POST", headers, body: JSON.stringify({ query: message, include: ["body"] }), signal: AbortSignal.timeout(1000) });
    if (!response.ok) return {};
    const answer = (await response.json()) as RouteAnswer;
    const injected = answer.skills.find((skill) => skill.name === answer.selected[0]);
    if (answer.decision === "inject" && injected?.body) return { system: `Follow the skill "${injected.name}":\n\n${injected.body}` };
    if (answer.decision !== "offer" || !answer.offer) return {};
    const names = answer.offer.skills.map((skill) => skill.name);
    const loadSkill = {
      name: "load_skill",
      description: "Load an installed skill's instructions by its name.",
      parameters: { type: "object", properties: { name: { type: "string", enum: names } }, required: ["name"] },
    };
    return { system: answer.offer.text.replace("with your skill-loading tool", "with the load_skill tool"), tools: [{ type: "function", function: loadSkill }] };
  } catch {
    return {};
  }
}

/** Step two, when the model calls load_skill: the chosen skill's instructions, exactly as the router would inject them. */
async function loadSkill(name: string): Promise<string> {
  const response = await fetch(`${url}/skills/${encodeURIComponent(name)}`, { headers, signal: AbortSignal.timeout(1000) });
  return response.ok ? ((await response.json()) as { body: string }).body : `no skill named ${name}`;
}

const message = process.argv[2] ?? "my pod keeps restarting with CrashLoopBackOff";
const added = await addedFor(message);
const request = {
  messages: [
    { role: "system", content: ["You are a helpful assistant.", ...(added.system ? [added.system] : [])].join("\n\n") },
    { role: "user", content: message },
  ],
  ...(added.tools ? { tools: added.tools } : {}),
};
// A second argument stands for the model's choice from the list: the tool's answer it would get.
const chosen = process.argv[3];
console.log(JSON.stringify(chosen ? { ...request, load_skill: await loadSkill(chosen) } : request, null, 2));
