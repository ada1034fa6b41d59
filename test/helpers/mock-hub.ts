import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface MockHubOptions {
  /** Paths whose bytes are altered when served, while the tree API lists the true hashes. */
  corrupt?: string[];
  /** Tree API entries per page, to exercise pagination through the Link header. */
  pageSize?: number;
}

export interface MockHub {
  url: string;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** The Authorization header of each request ("" when absent). */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that answers like the Hugging Face hub for the calls `router models pull` makes: the
 * tree API (sizes, git blob ids, LFS sha256, paginated), and /resolve/ downloads, where large (onnx) files
 * redirect to a CDN path with the x-linked-etag header, as the hub does.
 */
export async function startMockHub(repos: Record<string, { folder: string; files: string[] }>, options: MockHubOptions = {}): Promise<MockHub> {
  const requests: string[] = [];
  const authorizations: string[] = [];
  const content = (repo: string, file: string) => readFileSync(path.join(repos[repo]!.folder, file));
  const lfs = (file: string) => file.endsWith(".onnx");
  const byHash = new Map<string, { repo: string; file: string }>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, "http://hub");
    requests.push(`${request.method} ${url.pathname}`);
    authorizations.push(request.headers.authorization ?? "");
    const tree = url.pathname.match(/^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/);
    const resolve = url.pathname.match(/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/);
    const cdn = url.pathname.match(/^\/cdn\/([0-9a-f]{64})$/);
    if (tree && repos[tree[1]!] && tree[2] === "main") {
      const repo = tree[1]!;
      const entries = [
        { type: "directory", path: "onnx", oid: "0".repeat(40), size: 0 },
        ...repos[repo]!.files.map((file) => {
          const bytes = content(repo, file);
          const sha256 = createHash("sha256").update(bytes).digest("hex");
          byHash.set(sha256, { repo, file });
          const oid = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
          return { type: "file", path: file, size: bytes.length, oid, ...(lfs(file) ? { lfs: { oid: sha256, size: bytes.length, pointerSize: 134 } } : {}) };
        }),
      ];
      const pageSize = options.pageSize ?? entries.length;
      const cursor = Number(url.searchParams.get("cursor") ?? 0);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (cursor + pageSize < entries.length) headers.link = `<${hubUrl(server)}${url.pathname}?recursive=true&cursor=${cursor + pageSize}>; rel="next"`;
      response.writeHead(200, headers).end(JSON.stringify(entries.slice(cursor, cursor + pageSize)));
      return;
    }
    if (resolve && repos[resolve[1]!]?.files.includes(resolve[3]!) && resolve[2] === "main") {
      const [repo, file] = [resolve[1]!, resolve[3]!];
      const bytes = content(repo, file);
      if (lfs(file)) {
        const sha256 = createHash("sha256").update(bytes).digest("hex");
        byHash.set(sha256, { repo, file });
        response.writeHead(302, { location: `/cdn/${sha256}`, "x-linked-etag": `"${sha256}"`, "x-linked-size": String(bytes.length) }).end();
      } else {
        response.writeHead(200, { etag: `"${createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex")}"` }).end(served(file, bytes));
      }
      return;
    }
    if (cdn && byHash.has(cdn[1]!)) {
      const { repo, file } = byHash.get(cdn[1]!)!;
      response.writeHead(200).end(served(file, content(repo, file)));
      return;
    }
    response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Repository not found" }));
  });
  const served = (file: string, bytes: Buffer) => {
    if (!options.corrupt?.includes(file)) return bytes;
    const altered = Buffer.from(bytes);
    altered[altered.length >> 1] = altered[altered.length >> 1]! ^ 0xff;
    return altered;
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: hubUrl(server),
    requests,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function hubUrl(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback address where nothing listens: connections are refused at once. */
export async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = hubUrl(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}
