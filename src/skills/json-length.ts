/**
 * Whether `value` written as compact JSON is longer than `limit` characters, found by walking it only until the
 * count passes the limit: a 60 MiB schema is refused after a megabyte of it, not after printing all of it.
 * Escapes are not counted, so the count never exceeds the real length: true means longer for certain (and the
 * count is exact for text without escapes).
 */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  let length = 0;
  const visit = (item: unknown): boolean => {
    if (typeof item === "string") length += item.length + 2;
    else if (Array.isArray(item)) {
      length += item.length === 0 ? 2 : 1 + item.length;
      for (const element of item) if (visit(element)) return true;
    } else if (typeof item === "object" && item !== null) {
      // Keys only: Object.entries of a 600,000-key schema allocated a pair for every key before the walk began.
      const keys = Object.keys(item);
      length += keys.length === 0 ? 2 : 1 + keys.length;
      for (const key of keys) {
        length += key.length + 3;
        if (visit((item as Record<string, unknown>)[key])) return true;
      }
    } else length += String(item).length;
    return length > limit;
  };
  return visit(value);
}
