import { createError } from "../errors.js";

// Our own two calls, not @huggingface/hub 2.17: measured against the mock hub, the library saved no lines (the time
// bounds, error messages and hashes stay ours), made 10 requests for MiniLM's 4 files instead of 6 (a range probe
// before each download), refused tokens not starting with hf_, and weighs 11.4 MB installed (with @huggingface/tasks).

export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";
// An unreachable or silent host fails within seconds, not after the operating system's TCP timeouts.
const RESPONSE_TIMEOUT_MS = 15_000;
// A body that stops flowing for this long is abandoned.
const STALL_TIMEOUT_MS = 30_000;

export interface HubOptions {
  /** The public hub unless given (HF_ENDPOINT, huggingface_hub's variable); a mirror or a test server works too. */
  endpoint?: string;
  /** For gated or private repositories (HF_TOKEN). */
  token?: string;
  revision?: string;
}

/** A file of a hub repository as its tree API lists it; `lfs` carries the sha256 of large files. */
export interface HubFile {
  path: string;
  size: number;
  /** The git blob id (sha1 of "blob <size>\0" + content). */
  oid: string;
  lfs?: { oid: string; size: number };
}

export function hubSettings(options: HubOptions = {}): Required<HubOptions> {
  return {
    endpoint: (options.endpoint || DEFAULT_HUB_ENDPOINT).replace(/\/+$/, ""),
    token: options.token ?? "",
    revision: options.revision ?? "main",
  };
}

/** Every file of a repository at a revision, with sizes and hashes, following the API's pagination. */
export async function listRepoFiles(repo: string, hub: Required<HubOptions>): Promise<HubFile[]> {
  const files: HubFile[] = [];
  let url: string | undefined = `${hub.endpoint}/api/models/${repo}/tree/${encodeURIComponent(hub.revision)}?recursive=true`;
  while (url) {
    const response = await hubFetch(url, hub, `${repo} at revision ${hub.revision}`);
    const entries = (await response.json()) as (HubFile & { type: string })[];
    if (!Array.isArray(entries)) throw createError("MODEL_DOWNLOAD_FAILED", `${url} did not answer with a file list`);
    for (const entry of entries) if (entry.type === "file") files.push({ path: entry.path, size: entry.size, oid: entry.oid, ...(entry.lfs ? { lfs: entry.lfs } : {}) });
    url = nextPage(response.headers.get("link"));
  }
  return files;
}

/**
 * Streams one file of a repository (the hub redirects large files to its CDN; fetch follows). The returned
 * `linkedEtag` is the hub's x-linked-etag: the sha256 of an LFS file, a second source for its expected hash.
 */
export async function openRepoFile(repo: string, file: string, hub: Required<HubOptions>): Promise<{ body: AsyncIterable<Uint8Array>; linkedEtag: string | undefined }> {
  const controller = new AbortController();
  const response = await hubFetch(`${hub.endpoint}/${repo}/resolve/${encodeURIComponent(hub.revision)}/${file}`, hub, `${repo}/${file}`, controller);
  if (!response.body) throw createError("MODEL_DOWNLOAD_FAILED", `${repo}/${file}: empty response`);
  const linkedEtag = response.headers.get("x-linked-etag")?.replace(/^(W\/)?"|"$/g, "");
  return { body: stallGuard(response.body, controller, `${repo}/${file}`), linkedEtag };
}

async function hubFetch(url: string, hub: Required<HubOptions>, what: string, controller = new AbortController()): Promise<Response> {
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${RESPONSE_TIMEOUT_MS / 1000} s`)), RESPONSE_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: controller.signal, headers: hub.token ? { authorization: `Bearer ${hub.token}` } : {} });
  } catch (error) {
    throw createError(
      "MODEL_DOWNLOAD_FAILED",
      `Cannot reach ${hub.endpoint} (${networkReason(error)}). Check the network, set HF_ENDPOINT to a reachable mirror, or copy the model files into the models folder by hand (see models/README.md).`,
      {
        endpoint: hub.endpoint,
      },
    );
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) return response;
  const reason =
    response.status === 404
      ? "not found on the hub (check the name and revision)"
      : response.status === 401 || response.status === 403
        ? "access denied (set HF_TOKEN for gated or private models)"
        : `HTTP ${response.status}`;
  throw createError("MODEL_DOWNLOAD_FAILED", `${what}: ${reason}`, { url, status: response.status });
}

async function* stallGuard(body: ReadableStream<Uint8Array>, controller: AbortController, what: string): AsyncIterable<Uint8Array> {
  let timer = setTimeout(() => controller.abort(), STALL_TIMEOUT_MS);
  try {
    for await (const chunk of body) {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), STALL_TIMEOUT_MS);
      yield chunk;
    }
  } catch (error) {
    throw createError("MODEL_DOWNLOAD_FAILED", `${what}: download interrupted (${controller.signal.aborted ? `no data for ${STALL_TIMEOUT_MS / 1000} s` : networkReason(error)})`);
  } finally {
    clearTimeout(timer);
  }
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function nextPage(link: string | null): string | undefined {
  return link?.match(/<([^>]+)>;\s*rel="next"/)?.[1];
}
