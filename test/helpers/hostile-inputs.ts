import fc from "fast-check";

// Shared by the HTTP fuzz test and bench/hostile-http.ts, so both send what once answered 500 or was misread.

/** Printable ASCII of at most `maxLength` characters (header values node:http accepts). */
export const printable = (maxLength: number) => fc.string({ unit: "binary-ascii", maxLength }).map((text) => text.replace(/[^\x20-\x7e]/g, "").trim());

/** Content types that are not plainly application/json: near misses of it, lists, other charsets and other types. */
export const UNUSUAL_CONTENT_TYPES = [
  "application/jsonx",
  "application/json;;",
  "application/json, text/plain",
  "application/json-seq",
  "application/json; charset=utf-16",
  "text/plain",
  "multipart/form-data; boundary=x",
];
