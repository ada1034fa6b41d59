/** At most `limit` items taken at an even step through the list (calibration samples skills in name order). */
export function evenSample<T>(items: T[], limit: number): T[] {
  const step = Math.max(1, Math.floor(items.length / limit));
  return items.filter((_, index) => index % step === 0).slice(0, limit);
}
