import { existsSync, readFileSync, writeFileSync } from "node:fs";

/**
 * Writes a group of "## " sections into a markdown file as one block, in the given order: where the first of
 * them already stands, else at the end. Every other section stays exactly as it was (other benches own them).
 */
export function replaceSections(file: string, sections: { heading: string; text: string }[]): void {
  const content = existsSync(file) ? `${readFileSync(file, "utf8").trimEnd()}\n` : "# Benchmark results\n";
  const ranges = sections
    .flatMap(({ heading }) => {
      // A leading newline lets a heading on the first line match like any other; the index is then the heading's own.
      const start = `\n${content}`.indexOf(`\n${heading}\n`);
      if (start === -1) return [];
      const next = content.indexOf("\n## ", start + heading.length);
      return [{ start, end: next === -1 ? content.length : next + 1 }];
    })
    .sort((a, b) => a.start - b.start);
  const block = sections.map((section) => `${section.text.trimEnd()}\n`).join("\n");
  if (ranges.length === 0) {
    writeFileSync(file, `${content.trimEnd()}\n\n${block}`);
    return;
  }
  const pieces: string[] = [];
  let cursor = 0;
  for (const range of ranges) {
    pieces.push(content.slice(cursor, range.start));
    cursor = range.end;
  }
  const rest = pieces.slice(1).join("") + content.slice(cursor);
  writeFileSync(file, `${pieces[0]}${block}${rest.trim() === "" ? "" : `\n${rest.trimEnd()}\n`}`);
}
