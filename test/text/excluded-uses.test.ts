import { describe, expect, it } from "vitest";
import { withoutExclusions } from "../../src/text/excluded-uses.js";

describe("withoutExclusions", () => {
  it("leaves out what a text says it is not for, to the end of its sentence, list and all", () => {
    expect(
      withoutExclusions(
        "Deploy a repository to a Coolify VPS. Do not use for Vercel or Cloudflare Pages delivery, pure DNS explanations, or local-only Docker runs. Use when the user asks to deploy.",
      ),
    ).toBe("Deploy a repository to a Coolify VPS. Use when the user asks to deploy.");
    expect(withoutExclusions("Use for checkpoints, not for SQL SAVEPOINT or session rotation.")).toBe("Use for checkpoints,");
    expect(withoutExclusions("Plan an A/B test. For tracking implementation, see analytics-tracking.")).toBe("Plan an A/B test.");
    expect(withoutExclusions("生成季度销售报告。不要用于个人记账。支持区域对比。")).toBe("生成季度销售报告。支持区域对比。");
    expect(withoutExclusions("Genera informes de ventas. NO usar para: facturas, nóminas.")).toBe("Genera informes de ventas.");
  });

  it("keeps a text with no exclusion as it is", () => {
    for (const text of ["Diagnose failing pods with kubectl.", "这个接口不要求登录", "Does not require a login.", ""]) expect(withoutExclusions(text)).toBe(text);
  });
});
