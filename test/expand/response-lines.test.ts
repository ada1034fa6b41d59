import { describe, expect, it } from "vitest";
import { manifestRequestLines, parseCustomId, requestCustomId } from "../../src/expand/request-lines.js";
import { readResponseLines } from "../../src/expand/response-lines.js";
import { skillTextHash } from "../../src/store/skill-text.js";
import { goodManifestFor } from "./chat-server.js";

const skill = { id: "0123456789abcdef", name: "alpha", kind: "skill" as const, description: "Alpha things.", body: "# Alpha", contentHash: "a".repeat(64), metadata: {} };

function batchLine(customId: string, content: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    custom_id: customId,
    response: { status_code: 200, body: { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] } },
    error: null,
    ...extra,
  });
}

describe("request and response lines", () => {
  it("names each request by skill and the hash of its text, and falls back to the id for long names", () => {
    const textHash = skillTextHash(skill).slice(0, 12);
    expect(requestCustomId(skill)).toBe(`alpha@${textHash}`);
    expect(parseCustomId("alpha@aaaaaaaaaaaa")).toEqual({ key: "alpha", hashPrefix: "aaaaaaaaaaaa" });
    expect(parseCustomId("user@example")).toEqual({ key: "user@example" });
    const long = { ...skill, name: "x".repeat(60) };
    expect(requestCustomId(long)).toBe(`0123456789abcdef@${skillTextHash(long).slice(0, 12)}`);
    const [line] = manifestRequestLines([skill], [skill], "m");
    expect(line!.body.messages.map((message) => message.role)).toEqual(["system", "user"]);
  });

  it("reads batch API output lines and simple lines, and says what is wrong with the others", () => {
    const good = goodManifestFor({ body: { model: "m", messages: [{ role: "user", content: "Skill name: alpha" }] } });
    const text = [
      batchLine("alpha@aaaaaaaaaaaa", good),
      JSON.stringify({ name: "beta", manifest: { queries: ["  beta please ", "beta please"], category: "Tools" } }),
      batchLine("gamma@bbbbbbbbbbbb", "{not json"),
      JSON.stringify({ custom_id: "delta", response: null, error: { code: "rate_limit", message: "slow down" } }),
      JSON.stringify({ name: "epsilon", manifest: { queries: "not a list" } }),
      JSON.stringify({ manifest: { queries: ["who?"] } }),
      "",
    ].join("\n");
    const { imports, problems } = readResponseLines(text, "r.jsonl");
    expect([...imports.keys()]).toEqual(["alpha", "beta"]);
    expect(imports.get("alpha")).toMatchObject({ hashPrefix: "aaaaaaaaaaaa", origin: "r.jsonl line 1" });
    expect(imports.get("alpha")!.manifest.queries).toHaveLength(20);
    expect(imports.get("beta")!.manifest).toEqual({ queries: ["beta please"], category: "tools" });
    expect(problems).toEqual([
      expect.stringMatching(/^r\.jsonl line 3: "gamma": not JSON/),
      expect.stringMatching(/^r\.jsonl line 4: "delta": the request failed \(.*slow down/),
      expect.stringMatching(/^r\.jsonl line 5: "epsilon": the manifest does not fit the schema \(queries:/),
      'r.jsonl line 6: no "name" or "custom_id" to say which skill it is for',
    ]);
  });
});
