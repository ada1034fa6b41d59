import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_MARKER } from "../../scripts/build-docs.js";
import { headingAnchors, proseLines, read, USER_DOCS } from "./markdown.js";

const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

describe("the README and docs/", () => {
  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of USER_DOCS) {
      for (const line of proseLines(read(file))) {
        for (const [, target] of line.matchAll(LINK)) {
          if (/^[a-z]+:/i.test(target!)) continue;
          checked++;
          const [linked, anchor] = target!.split("#") as [string, string | undefined];
          const resolved = linked === "" ? file : path.join(path.dirname(file), linked);
          if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${resolved})`);
          else if (anchor !== undefined && !(statSync(resolved).isFile() && headingAnchors(read(resolved)).has(anchor))) broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it("keep the README a front door of at most 12 KB", () => {
    expect(Buffer.byteLength(read("README.md"))).toBeLessThanOrEqual(12 * 1024);
  });

  it("tell a newcomer how to move the port, and where to read the threshold an answer used (heuristic manifests get their own)", () => {
    const readme = read("README.md");
    expect(readme).toMatch(/ROUTER_PORT=\d+ npm start/);
    expect(readme).not.toMatch(/threshold \([\d.]+ by default\)/);
    expect(readme).toMatch(/`threshold` in `router route\s+--json`/);
  });

  it("point at nothing a user does not have, and speak of no issue numbers", () => {
    for (const file of USER_DOCS) {
      // HTML comments are notes for maintainers; the generated part of cli.md is the CLI's own --help.
      const text = read(file)
        .split(GENERATED_MARKER)[0]!
        .replace(/<!--[^]*?-->/g, "");
      expect(text, file).not.toMatch(/\.\.\/shared/);
      expect(text, file).not.toMatch(/\bissues? #?\d/i);
    }
  });
});
