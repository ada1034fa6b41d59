import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { isLoopbackAddress } from "../config/loopback.js";
import { createError } from "../errors.js";
import { clip } from "./echo-limits.js";
import type { Logger } from "./logger.js";

export interface HostCheckOptions {
  /** Host names answered besides loopback names and IP addresses: exact, ".example.com" for it and its subdomains, "*" for any. */
  allowedHosts: string[];
  /** Origins CORS lets in (corsOrigins): a browser page there may call this server too. */
  corsOrigins: string[];
  /** False with an API key: a rebinding page does not have the key, and a keyed server answers any name it is reached by. */
  checkHost: boolean;
  logger: Logger;
}

/**
 * The DNS-rebinding guard. A page that rebinds its own name to this machine arrives with that name as Host and
 * Origin, so a server without a key answers only a Host it knows: a loopback name, an IP address (an address cannot
 * be rebound: a page from it came from that machine), or an allowed host. And, as the MCP spec's Streamable HTTP
 * transport requires, a request carrying an Origin (a browser's) is answered only when that origin is this server's
 * own page, a loopback or allowed host, or listed in corsOrigins; clients that are not browsers send no Origin.
 */
export function refuseForeignHosts(options: HostCheckOptions): MiddlewareHandler {
  const allowsHost = hostMatcher(options.allowedHosts);
  const corsOrigins = new Set(options.corsOrigins.map((origin) => (origin === "*" ? origin : new URL(origin).origin)));
  return async (c, next) => {
    const host = c.req.header("host");
    const origin = c.req.header("origin");
    if (options.checkHost && host !== undefined) {
      const name = hostnameOf(host);
      if (!(isIpLiteral(name) || isLoopbackName(name) || allowsHost(name))) refuse("HOST_NOT_ALLOWED", host, origin);
    }
    if (origin !== undefined && !corsOrigins.has("*") && !originAllowed(origin, host, allowsHost, corsOrigins)) refuse("ORIGIN_NOT_ALLOWED", host, origin);
    return next();
  };

  function refuse(code: "HOST_NOT_ALLOWED" | "ORIGIN_NOT_ALLOWED", host: string | undefined, origin: string | undefined): never {
    const shown = { host: host === undefined ? undefined : clip(host), origin: origin === undefined ? undefined : clip(origin) };
    options.logger.warn({ event: "host_check", code, ...shown }, "request refused: foreign Host or Origin (DNS rebinding, or a name to allow)");
    throw code === "HOST_NOT_ALLOWED"
      ? createError(code, `This server has no API key and does not answer requests for host "${shown.host}": add it to ROUTER_ALLOWED_HOSTS (--allowed-hosts), or set ROUTER_API_KEY`, {
          host: shown.host,
        })
      : createError(code, `This server does not answer browser requests from ${shown.origin}: list it in ROUTER_CORS_ORIGINS, or its host in ROUTER_ALLOWED_HOSTS`, { origin: shown.origin });
  }
}

function originAllowed(origin: string, host: string | undefined, allowsHost: (name: string) => boolean, corsOrigins: Set<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (a sandboxed frame, a file:// page) and anything else that is not an origin.
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // This server's own page (the explorer), however it was reached: by an IP address, or a name behind a proxy.
  if (host !== undefined && url.host === authorityOf(host)) return true;
  return corsOrigins.has(url.origin) || isLoopbackName(url.hostname) || isLoopbackHost(url.hostname) || allowsHost(url.hostname);
}

function hostMatcher(allowedHosts: string[]): (name: string) => boolean {
  const exact = new Set(allowedHosts.filter((entry) => !entry.startsWith(".")));
  const suffixes = allowedHosts.filter((entry) => entry.startsWith("."));
  return (name) => exact.has("*") || exact.has(name) || suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix));
}

/** The name of a Host header, lower-cased, without its port or a trailing dot; an IPv6 address keeps its brackets. */
function hostnameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  const name = lower.startsWith("[") ? lower.slice(0, lower.indexOf("]") + 1) : lower.replace(/:\d*$/, "");
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** A Host header as a URL writes its authority (the default port dropped), or undefined when it is not one. */
function authorityOf(host: string): string | undefined {
  try {
    return new URL(`http://${host.trim()}`).host;
  } catch {
    return undefined;
  }
}

/** localhost and its subdomains: browsers resolve them to loopback themselves (RFC 6761), never through DNS. */
function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost");
}

/** A URL's hostname that is a loopback address (an IPv6 one in brackets). */
function isLoopbackHost(name: string): boolean {
  return isLoopbackAddress(name.startsWith("[") ? name.slice(1, -1) : name);
}

function isIpLiteral(name: string): boolean {
  return isIP(name) === 4 || (name.startsWith("[") && name.endsWith("]") && isIP(name.slice(1, -1)) === 6);
}
