// Bounds that keep one bad or hostile file from stalling or exhausting an index run.
export const MAX_SKILL_FILE_BYTES = 1024 * 1024; // a SKILL.md or skill.md
export const MAX_JSON_FILE_BYTES = 64 * 1024 * 1024; // a tool definition file (MCP dumps can be large)
export const MAX_ZIP_FILE_BYTES = 64 * 1024 * 1024; // a zip archive on disk
export const MAX_ZIP_ENTRIES = 10_000;
export const MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES = 256 * 1024 * 1024; // sum of declared sizes in one archive
export const MAX_LISTED_FILES = 1_000; // supporting files listed per skill
// YAML parses at 1 to 4 µs a byte (the slow end when every line is an error): a 1 MiB block took 4 to 15 s.
export const MAX_FRONTMATTER_BYTES = 32 * 1024; // real frontmatter stays under 2 KB (3,355 corpus skills)
export const MAX_MANIFEST_FILE_BYTES = 256 * 1024; // router-manifest.yaml: a folder's, or one mapping a tool file's tools
// One tool definition is injected whole, like a SKILL.md, so it is held to the same size.
export const MAX_TOOL_DEFINITION_BYTES = MAX_SKILL_FILE_BYTES;
// Nesting of a tool JSON file or YAML block: real schemas stay far below it; deeper input is refused unparsed,
// because recursive code over it (JSON.stringify, the YAML parser) runs out of stack or memory.
export const MAX_NESTING_DEPTH = 64;
