import { describe, expect, it } from "vitest";
import { withoutNegatedSpans } from "../../src/text/negated-spans.js";

const kept = (text: string) => withoutNegatedSpans(text).replace(/\s+/g, " ").trim();

describe("withoutNegatedSpans", () => {
  it("leaves out what a request says it does not want, to the end of its clause", () => {
    expect(kept("Summarize this incident, but do not package it as a reusable skill.")).toBe("Summarize this incident, but .");
    expect(kept("Install Docker on a bare VPS without using Coolify, then open port 80")).toBe("Install Docker on a bare VPS , then open port 80");
    expect(kept("Refactor the payments module instead of rewriting it")).toBe("Refactor the payments module");
    expect(kept("用 SSH 给一台裸 VPS 安装 Docker，不使用 Coolify。")).toBe("用 SSH 给一台裸 VPS 安装 Docker， 。");
    expect(kept("总结这篇文章内容，不改标题")).toBe("总结这篇文章内容，");
  });

  it("keeps a problem the request describes: a negation there is part of the problem", () => {
    for (const text of ["my pod doesn't start after the upgrade", "I can't find my PIN", "the build is not reproducible", "为什么我的容器不是最新版本", "这个接口不要求登录吗"])
      expect(withoutNegatedSpans(text)).toBe(text);
  });

  it("keeps the text's length, so offsets still point at the same words", () => {
    const text = "Deploy the app, don't touch the database 🙂";
    expect(withoutNegatedSpans(text)).toHaveLength(text.length);
  });
});
