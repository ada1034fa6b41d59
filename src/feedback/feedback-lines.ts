import { isRecord } from "../skills/json-document.js";

export interface FeedbackLine {
  query: string;
  skill: string | null;
  client: string;
  /** Where it came from, for messages: "feedback.jsonl line 3". */
  origin: string;
}

/** Reads `router feedback import` lines: `{"query", "skill" (a name or null), "client"?}` each; a bad line is a problem, not the end. */
export function feedbackLines(text: string, source: string): { lines: FeedbackLine[]; problems: string[] } {
  const lines: FeedbackLine[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const origin = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push(`${origin}: not JSON (${(error as Error).message})`);
      return;
    }
    if (!isRecord(value) || typeof value["query"] !== "string" || value["query"].trim() === "" || !(value["skill"] === null || typeof value["skill"] === "string")) {
      problems.push(`${origin}: expected {"query": "...", "skill": "<name>" or null}`);
      return;
    }
    lines.push({ query: value["query"], skill: value["skill"], client: typeof value["client"] === "string" ? value["client"] : "import", origin });
  });
  return { lines, problems };
}
