/** `get_current_weather` or `getCurrentWeather` -> `get current weather`: models and people read words, not identifiers. */
export function readableName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim();
}
