// The one catalogue of error codes: every error a user or client can see has a stable code to match on.
export const ERROR_CATALOGUE = {
  PATHS_MISSING: { status: 400, message: "No path given to index" },
  PATH_NOT_FOUND: { status: 400, message: "Path does not exist" },
  INDEX_NOT_FOUND: { status: 503, message: "Index file does not exist" },
  INDEX_CORRUPT: { status: 503, message: "Index file is not a readable skill-router index" },
  INDEX_TOO_NEW: { status: 503, message: "Index was written by a newer skill-router" },
  INDEX_LOCKED: { status: 503, message: "Index is locked by another writer" },
  INDEX_READ_ONLY: { status: 503, message: "The index file or its folder is read-only, and this command writes the index" },
  INDEX_NOT_A_FILE: { status: 503, message: "The index path names a folder, not a file" },
  INDEX_IO_ERROR: { status: 503, message: "The index file could not be opened, read or written" },
  INDEX_OUTDATED: { status: 503, message: "Index was written by an older skill-router; run `router index` again" },
  NO_SKILLS_FOUND: { status: 400, message: "No skills found" },
  SKILL_NOT_FOUND: { status: 404, message: "No skill with that name" },
  EMBEDDER_MISMATCH: { status: 409, message: "Index was built with a different embedder" },
  MODEL_NOT_FOUND: { status: 503, message: "Model files are missing" },
  MODEL_DOWNLOAD_FAILED: { status: 502, message: "Model download failed" },
  MODEL_INTEGRITY_FAILED: { status: 502, message: "A downloaded model file does not match the size or hash the hub published" },
  MODEL_LOAD_FAILED: { status: 503, message: "Model files are present but could not be loaded" },
  MODEL_FAILED: { status: 500, message: "The model failed while running" },
  INVALID_ARGUMENT: { status: 400, message: "Invalid argument" },
  UNKNOWN_SKILLS: { status: 400, message: "Some requested skills are not in the index" },
  INVALID_REQUEST: { status: 400, message: "The request does not match the schema" },
  QUERY_EMPTY: { status: 400, message: "The query is empty" },
  QUERY_TOO_LONG: { status: 400, message: "The query is too long" },
  QUERY_NOT_STRING: { status: 400, message: "The query must be a string" },
  MALFORMED_JSON: { status: 400, message: "The request body is not valid JSON" },
  BODY_NOT_UTF8: { status: 400, message: "The request body is not valid UTF-8" },
  MALFORMED_HTTP: { status: 400, message: "The request is not valid HTTP/1.1" },
  HEADERS_TOO_LARGE: { status: 431, message: "The request's headers are larger than this server accepts" },
  // A slow client (headers or body still arriving when time is up) is the client's fault, counted apart from 5xx.
  CLIENT_TIMEOUT: { status: 408, message: "The request did not arrive in full within the time this server allows" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Send the request body as application/json" },
  NOT_READY: { status: 503, message: "The router is still loading its index and models" },
  API_KEY_MISSING: { status: 401, message: "This server needs an API key: send Authorization: Bearer <key>" },
  API_KEY_INVALID: { status: 401, message: "The API key is not valid" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is larger than this server accepts" },
  TOO_MANY_CASES: { status: 400, message: "The eval set has more cases than one request may route" },
  REQUEST_TIMEOUT: { status: 503, message: "The request took longer than this server allows" },
  ROUTE_NOT_FOUND: { status: 404, message: "No such endpoint" },
  // 421 Misdirected Request (RFC 9110): this server will not answer for that host name, the mark of DNS rebinding.
  HOST_NOT_ALLOWED: { status: 421, message: "This server without an API key answers only its loopback names, IP addresses and ROUTER_ALLOWED_HOSTS" },
  // 403, as the MCP spec's Streamable HTTP transport requires of a server that refuses an Origin.
  ORIGIN_NOT_ALLOWED: { status: 403, message: "Browser requests are answered only from this server's own pages, loopback and allowed hosts, and ROUTER_CORS_ORIGINS" },
  // nginx's status for a client that went away mid-request: counted apart from server failures (5xx).
  CLIENT_CLOSED_REQUEST: { status: 499, message: "The client closed the connection before sending the whole request" },
  PORT_IN_USE: { status: 503, message: "Another process is listening on that port" },
  LISTEN_FAILED: { status: 503, message: "The server could not listen on that host and port" },
  INTERNAL_ERROR: { status: 500, message: "Internal error" },
  FILE_ACCESS_FAILED: { status: 500, message: "A file or folder could not be read or written" },
  LLM_NOT_CONFIGURED: { status: 400, message: "No LLM configured for manifest expansion" },
  MANIFEST_IMPORT_INVALID: { status: 400, message: "The manifest import file has no usable line" },
  FEEDBACK_LIMIT: { status: 409, message: "The index holds as much feedback as it keeps for this skill or client" },
  FEEDBACK_IMPORT_INVALID: { status: 400, message: "The feedback import file has no usable line" },
  // 409, not 5xx: the deployment, not the server, is in the way, and no retry helps until a store is configured.
  FEEDBACK_STORE_READ_ONLY: { status: 409, message: "The index is read-only and no feedback store is configured: set ROUTER_FEEDBACK_URL (docs/operations.md, Scaling out)" },
  FEEDBACK_STORE_UNAVAILABLE: { status: 503, message: "The feedback store did not answer in time; nothing was stored: send it again after Retry-After" },
  FEEDBACK_STORE_TOO_NEW: { status: 503, message: "The feedback store's schema was written by a newer skill-router" },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class RouterError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = "RouterError";
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

export function createError(code: ErrorCode, message?: string, details?: Record<string, unknown>): RouterError {
  return new RouterError(code, message, details);
}

export function isRouterError(error: unknown): error is RouterError {
  return error instanceof RouterError;
}
