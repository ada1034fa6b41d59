import type { ErrorCode } from "../errors.js";

/** Exit codes every command shares, so scripts and CI can tell outcomes apart. */
export const EXIT = {
  OK: 0,
  FAILURE: 1, // something went wrong at run time (damaged index, model failure, ...)
  USAGE: 2, // bad arguments or options
  NOT_FOUND: 3, // the named skill, index or model does not exist
  INVALID_SKILLS: 4, // `index --strict`: some skills were invalid
  GATE_FAILED: 5, // `eval` gates (--min-accuracy, ...) were not met
} as const;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case "PATHS_MISSING":
    case "PATH_NOT_FOUND":
    case "INVALID_ARGUMENT":
    case "NO_SKILLS_FOUND":
    case "LLM_NOT_CONFIGURED":
    case "MANIFEST_IMPORT_INVALID":
    case "UNKNOWN_SKILLS":
    case "QUERY_EMPTY":
    case "QUERY_NOT_STRING":
    case "QUERY_TOO_LONG":
    case "INDEX_NOT_A_FILE":
      return EXIT.USAGE;
    case "SKILL_NOT_FOUND":
    case "INDEX_NOT_FOUND":
    case "MODEL_NOT_FOUND":
      return EXIT.NOT_FOUND;
    default:
      return EXIT.FAILURE;
  }
}
