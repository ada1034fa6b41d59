import { fileURLToPath } from "node:url";

/** The Chinese-English gloss table as `npm run build` leaves it (src/text/build-han-glosses.ts), in the package's models/ folder. */
export const HAN_GLOSS_DIR = fileURLToPath(new URL("../../models/han-glosses", import.meta.url));
export const HAN_GLOSS_FILES = { table: "glosses.tsv", build: "build.json" } as const;
