/**
 * Runs synchronous `work` and counts the Map lookups (`get`) it made on the way: a measure of an algorithm's work
 * that a loaded machine cannot skew, where a clock can. Every Map of the process counts while `work` runs.
 */
export function countMapLookups<T>(work: () => T): { result: T; lookups: number } {
  const get = Map.prototype.get;
  let lookups = 0;
  Map.prototype.get = function (this: Map<unknown, unknown>, key: unknown) {
    lookups++;
    return get.call(this, key);
  };
  try {
    const result = work();
    return { result, lookups };
  } finally {
    Map.prototype.get = get;
  }
}
