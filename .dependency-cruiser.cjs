// The layering of src/ (see README, Layout), checked by `npm run lint:deps` in every test run.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "A cycle, of values or of types, means two modules are one: merge them or move what they share down a layer.",
      from: { path: "^src" },
      to: { circular: true },
    },
    {
      name: "store-is-a-leaf",
      severity: "error",
      comment: "The store holds what the others write and read; it depends on nothing of ours but the error catalogue.",
      from: { path: "^src/store/" },
      to: { path: "^src/", pathNot: ["^src/store/", "^src/errors\\.ts$"] },
    },
    {
      name: "contract-is-a-leaf",
      severity: "error",
      comment: "Every way in derives from the contract: it depends on zod, the error catalogue and the store's record types only.",
      from: { path: "^src/contract/" },
      to: { path: "^src/", pathNot: ["^src/contract/", "^src/errors\\.ts$", "^src/store/records\\.ts$"] },
    },
    {
      name: "text-and-models-are-leaves",
      severity: "error",
      comment: "The analyser and the models know nothing of skills, indexes or routing.",
      from: { path: "^src/(text|models)/" },
      to: { path: "^src/", pathNot: ["^src/(text|models)/", "^src/errors\\.ts$"] },
    },
    {
      name: "query-path-never-imports-index-time-code",
      severity: "error",
      comment: "Routing reads the index; parsing skills, writing manifests, indexing, fitting and evaluating are index-time or offline work.",
      from: { path: "^src/route/" },
      to: { path: "^src/(skills|expand|indexer|fit|calibrate|feedback|eval|server|cli|mcp|hooks|client|exports)/" },
    },
    {
      name: "index-time-code-never-imports-the-query-path",
      severity: "error",
      comment: "The indexer writes what the query path reads through src/store's typed codecs (routing data, measured records); it never reaches into src/route.",
      from: { path: "^src/indexer/" },
      to: { path: "^src/route/" },
    },
    {
      name: "feedback-never-imports-the-indexer",
      comment: "An index run folds feedback in (src/indexer calls src/feedback); feedback records, stores and judges, and never runs a build.",
      severity: "error",
      from: { path: "^src/feedback/" },
      to: { path: "^src/indexer/" },
    },
    {
      name: "the-query-path-never-writes-the-index",
      severity: "error",
      comment: "src/route reads an index through src/store's readers and codecs: the store modules that only write, and better-sqlite3 itself, are off limits.",
      from: { path: "^src/route/" },
      to: { path: ["^src/store/(migrations|manifest-rows|manifest-cache)\\.ts$", "better-sqlite3"] },
    },
    {
      name: "client-stays-light",
      severity: "error",
      comment: "skill-router/client runs in agents and edge runtimes: no SQLite, models, Hono or router code.",
      from: { path: "^src/client/" },
      to: { path: "^src/", pathNot: ["^src/client/", "^src/contract/", "^src/errors\\.ts$", "^src/store/records\\.ts$"] },
    },
    {
      name: "src-never-imports-tests-or-benches",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with; swc parses the sources, type-only imports included.
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js", ".json"] },
  },
};
