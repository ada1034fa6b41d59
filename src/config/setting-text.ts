import path from "node:path";
import type { SettingKind } from "./settings.js";

const TRUE = ["1", "true", "yes", "on"];
const FALSE = ["0", "false", "no", "off"];

/** A setting written as text (an environment variable or a flag's argument); undefined when it does not parse. */
export function parseSettingText(kind: SettingKind, text: string): string | number | boolean | string[] | undefined {
  const trimmed = text.trim();
  switch (kind) {
    case "string":
      return trimmed;
    case "integer":
      return /^-?\d+$/.test(trimmed) ? Number(trimmed) : undefined;
    case "boolean":
      return TRUE.includes(trimmed.toLowerCase()) ? true : FALSE.includes(trimmed.toLowerCase()) ? false : undefined;
    case "list":
      return trimmed
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
    case "paths":
      return trimmed.split(path.delimiter).map((folder) => folder.trim());
  }
}
