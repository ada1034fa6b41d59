import { describe, expect, it } from "vitest";
import { skillMdParser } from "../../src/skills/skill-md.js";
import { describeParserConformance, doc } from "./parser-conformance.js";

describeParserConformance({
  parser: skillMdParser,
  fileName: "skill.md",
  valid: { document: doc("/skills/Deploy Helper/skill.md", "# Deploy helper\n\nShips the app to staging and production.\n\nMore text.\n", ["modules/aws/module.json"]), names: ["deploy-helper"] },
  invalid: [
    { label: "malformed YAML", document: doc("/s/a/skill.md", "---\nname: : :\n  - x\n---\n"), reason: /malformed YAML/ },
    { label: "no description and no paragraph", document: doc("/s/a/skill.md", "# Only a heading\n"), reason: /no description/ },
  ],
  lenient: [
    {
      label: "an over-long description field",
      document: doc("/s/a/skill.md", `---\ndescription: ${"d".repeat(1025)}\n---\n`),
      name: "a",
      warning: /over the Agent Skills limit of 1024; indexed in full/,
      strictReason: /the limit is 1024/,
    },
    {
      label: "a name with spaces",
      document: doc("/s/a/skill.md", "---\nname: Deploy Helper\ndescription: Ships apps.\n---\n"),
      name: "deploy-helper",
      warning: /whitespace.*; routed as "deploy-helper"/,
      strictReason: /whitespace/,
    },
  ],
});

describe("skill-md parser", () => {
  it("takes the name from the folder and the description from the first paragraph", () => {
    const [skill] = skillMdParser.parse(doc("/skills/Deploy Helper/skill.md", "# Deploy helper\nShips the app\nto staging.\n\nSecond paragraph.\n")).skills;
    expect(skill!.name).toBe("deploy-helper");
    expect(skill!.description).toBe("Ships the app to staging.");
  });

  it("prefers frontmatter when present and lists modules/*/module.json", () => {
    const [skill] = skillMdParser.parse(
      doc("/skills/x/skill.md", "---\nname: deployer\ndescription: Deploys things.\n---\nBody.\n", ["modules/aws/module.json", "modules/gcp/module.json", "modules/readme.md", "scripts/run.sh"]),
    ).skills;
    expect(skill!.name).toBe("deployer");
    expect(skill!.description).toBe("Deploys things.");
    expect(skill!.metadata.modules).toEqual(["modules/aws/module.json", "modules/gcp/module.json"]);
    expect(skill!.metadata.supportingFiles).toEqual(["scripts/run.sh"]);
  });

  it("cuts a long first paragraph at a word inside the limit", () => {
    const [skill] = skillMdParser.parse(doc("/skills/x/skill.md", `${"word ".repeat(400)}\n`)).skills;
    expect(skill!.description.length).toBeLessThanOrEqual(1024);
    expect(skill!.description.endsWith("word")).toBe(true);
  });
});
