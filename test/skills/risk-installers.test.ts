import { describe, expect, it } from "vitest";
import { isTrustedSource } from "../../src/skills/risk-installers.js";

describe("a trusted source of an installer", () => {
  it.each([
    "https://sh.rustup.rs",
    "https://get.docker.com/",
    "https://download.docker.com/linux/static/stable/x86_64/docker.tgz",
    "bun.sh/install.ps1",
    "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh",
    "https://raw.githubusercontent.com/homebrew/install/HEAD/install.sh",
    "http://localhost:8080/setup.sh",
    "http://127.0.0.1/x",
  ])("is %s", (url) => {
    expect(isTrustedSource(url)).toBe(true);
  });

  it.each([
    ["a host that only ends like a vendor's", "https://evil-docker.com/install.sh"],
    ["a vendor's name as a subdomain of another host", "https://get.docker.com.example.net/install.sh"],
    ["a vendor's name as user info before another host", "https://get.docker.com@example.net/install.sh"],
    ["someone's repository on a shared host", "https://raw.githubusercontent.com/someone/tools/main/install.sh"],
    ["a release anyone can publish", "https://github.com/someone/tool/releases/download/v1/setup.exe"],
    ["a bare IP address", "http://203.0.113.7/install"],
    ["text that is no URL", "not a url at all"],
  ])("is not %s", (_, url) => {
    expect(isTrustedSource(url)).toBe(false);
  });
});
