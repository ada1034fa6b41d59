/**
 * Where a script piped into a shell, or a program downloaded and run, may come from without a flag: the installers and
 * download sites of well-known toolchains, package managers and vendors, each on a domain its vendor owns. A domain
 * entry covers its subdomains (get.docker.com is under docker.com). A host anyone can publish under (GitHub, raw
 * GitHub content, gists, paste sites, URL shorteners, cloud storage) is never trusted as a whole: only the path of a
 * vendor's own organisation on it is (raw.githubusercontent.com/Homebrew/). Anything else, and any bare IP address, is
 * unknown: not proof of an attack, but a program nobody vouches for, which is what ClawHub's lures ran.
 */
export const KNOWN_INSTALLERS = [
  // Language toolchains and their version managers.
  "sh.rustup.rs",
  "static.rust-lang.org",
  "deno.land",
  "deno.com",
  "bun.sh",
  "astral.sh",
  "install.python-poetry.org",
  "python.org",
  "pyenv.run",
  "nodejs.org",
  "deb.nodesource.com",
  "rpm.nodesource.com",
  "get.pnpm.io",
  "go.dev",
  "dl.google.com",
  "get.sdkman.io",
  "get.rvm.io",
  "sh.vector.dev",
  "raw.githubusercontent.com/nvm-sh/",
  "raw.githubusercontent.com/pyenv/",
  // Package managers and shells.
  "brew.sh",
  "raw.githubusercontent.com/Homebrew/",
  "nixos.org",
  "install.determinate.systems",
  "raw.githubusercontent.com/ohmyzsh/",
  "starship.rs",
  // Containers, clusters and cloud command lines.
  "docker.com",
  "get.k3s.io",
  "dl.k8s.io",
  "raw.githubusercontent.com/helm/",
  "get.helm.sh",
  "fluxcd.io",
  "run.linkerd.io",
  "releases.hashicorp.com",
  "get.pulumi.com",
  "sdk.cloud.google.com",
  "aka.ms",
  "microsoft.com",
  "awscli.amazonaws.com",
  "fly.io",
  "tailscale.com",
  "ollama.com",
  "rclone.org",
  "foundry.paradigm.xyz",
  "claude.ai",
  "community.chocolatey.org",
  "release.solana.com",
  "release.anza.xyz",
  // Editors, apps and vendor download pages.
  "code.visualstudio.com",
  "cursor.com",
  "opencode.ai",
  "proton.me",
  "git-scm.com",
  "apple.com",
] as const;

const DOMAINS = KNOWN_INSTALLERS.filter((entry) => !entry.includes("/"));
// GitHub's organisation names are case-insensitive, so a path is compared in lower case.
const PATHS = KNOWN_INSTALLERS.filter((entry) => entry.includes("/")).map((entry) => entry.toLowerCase());
// The user's own machine: a script served from it is the user's.
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|[\w-]+\.localhost|host\.docker\.internal)$/;

/** Whether a URL (with or without its scheme) is served by a known installer's host or the user's own machine; a text that is no URL is not. */
export function isTrustedSource(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return false;
  }
  // URL lowercases the host and drops user info, so "https://get.docker.com@evil.example/" is evil.example's.
  const host = parsed.hostname;
  if (LOCAL_HOST.test(host) || DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`))) return true;
  const hostAndPath = `${host}${parsed.pathname}`.toLowerCase();
  return PATHS.some((prefix) => hostAndPath.startsWith(prefix));
}
