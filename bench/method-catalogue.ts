/** The methods the routing benchmark compares, in table order. */
export const METHODS = {
  a: { label: "keyword router", what: "install-time manifest keywords (1 point) and phrases (2 points), case-insensitive contains, load at score >= 3" },
  b: { label: "BM25, name + description", what: "plain BM25 over the skill name and description; abstains below a score threshold that keeps 90% of the training half's in-scope cases routed" },
  c: { label: "dense, description only", what: "cosine to the description's embedding (offline model); threshold chosen like b" },
  p: {
    label: "@ruvector/router (peer)",
    what: "@ruvector/router 0.1.30's SemanticRouter (the release `npm ci` can install: 0.1.31 names platform packages that do not exist): one intent per skill, its embedding the centroid of the description and example queries (same offline model), HNSW search; threshold chosen like b",
  },
  d: {
    label: "heuristic manifests + hybrid",
    what: "the router (BM25F + query-to-query + query-to-description + keywords, default parameters) over manifests the heuristic expander wrote; no example queries",
  },
  e: { label: "example-query manifests + hybrid", what: "the router over manifests whose queries are the eval set's example queries (standing in for LLM expansion)" },
  f: { label: "e + cross-encoder", what: "e with the cross-encoder rescoring the best 5 candidates" },
  h: {
    label: "d, unseen defaults",
    what: "d with default parameters fitted without this eval set (leave-one-dataset-out: the training halves of the others only), with the evidence floor `router index` measured on this index and the share scale it measures for these defaults: what a new user without an LLM gets",
  },
  i: { label: "e, unseen defaults", what: "e with the same leave-one-dataset-out defaults as h" },
  g: {
    label: "after router fit",
    what: "e (d where there are no example queries) after `router fit` on the training half: ranking weights, in-scope model, thresholds, abstain examples (with the cross-encoder when present, as `router fit` runs)",
  },
} as const;

export type MethodId = keyof typeof METHODS;
