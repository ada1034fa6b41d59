import { describe, expect, it } from "vitest";
import { explicitOnlyReason } from "../../src/skills/explicit-only.js";

describe("a skill used only when called by name", () => {
  it("is read from Claude Code's frontmatter field", () => {
    expect(explicitOnlyReason({ "disable-model-invocation": true }, "Plans meals.", "")).toBe("its frontmatter says disable-model-invocation: true");
    expect(explicitOnlyReason({ "disable-model-invocation": false }, "Plans meals.", "")).toBeUndefined();
  });

  it("is read from prose that speaks of the skill being named, invoked or called by a slash command", () => {
    const said = [
      "Redesign a frontend. Use only when the user explicitly invokes this skill by name.",
      "Activate only when the user explicitly names this skill.",
      "Runs the hardening pass, only via /hp-harden and the other /hp-* commands.",
      "Load it exclusively through the /release slash command.",
    ];
    for (const description of said) expect(explicitOnlyReason({}, description, ""), description).toMatch(/^it says "/);
    expect(explicitOnlyReason({}, "Plans meals.", "# Meals\n\nUse only when the user explicitly calls this skill.")).toBe('it says "Use only when the user explicitly calls this skill."');
  });

  it("is not read from a topical condition or an instruction about something else", () => {
    const topical = [
      "Use this skill ONLY when the user explicitly requests PowerPoint/PPTX poster format.",
      "Use `wacli` only when the user explicitly asks you to message someone else on WhatsApp.",
      "Delete only on explicit opt-in; recoverable via reflog.",
      "MUST also use when the user explicitly asks to delegate to a local model.",
      "Activate only when the user explicitly names this skill or clearly instructs continuous, autonomous planning.",
    ];
    for (const description of topical) expect(explicitOnlyReason({}, description, ""), description).toBeUndefined();
  });

  it("counts only sentences about invoking this skill, not a slash command, a name or an endpoint spoken of otherwise", () => {
    const otherwise = [
      // What a message holds, not how the skill is called (the pre-commit-review).
      "When the newest message is only a slash command, answer in the language most of the conversation uses.",
      "Tokens are accepted only via the /oauth/token endpoint.",
      "Only send the summary through the /share command once the user agrees.",
      "Reply only with the name of the slash command the user should type next.",
      "Greet teammates only by name, never by their role.",
    ];
    for (const body of otherwise) expect(explicitOnlyReason({}, "Reviews staged changes before a commit.", body), body).toBeUndefined();
    // An example in a code block is not the author's own word.
    expect(explicitOnlyReason({}, "Writes skill descriptions.", "For a manual skill, write:\n\n```yaml\ndescription: Use only when the user invokes this skill by name.\n```")).toBeUndefined();
  });

  it("quotes the whole sentence that says so, from its first letter, without a heading or a wrapped line's break", () => {
    expect(explicitOnlyReason({}, "AI release engine -- triggered ONLY via /rel-* commands", "")).toBe('it says "AI release engine -- triggered ONLY via /rel-* commands"');
    expect(explicitOnlyReason({}, "Migrates data.", "## When to load\nActivate this skill only when the user asks for a data migration\nand names this skill in the request.\n\nSteps follow.")).toBe(
      'it says "Activate this skill only when the user asks for a data migration and names this skill in the request."',
    );
  });
});
