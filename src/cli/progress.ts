/**
 * Progress of one stage on stderr. On a terminal: one redrawn line, cleared at the end. Otherwise (logs, CI): a line
 * only when the stage has run a while since the last one, and one line when it completes, with its duration; a
 * stage that never started prints nothing. Both say what is counted (`reading 3/11 files`).
 */
export interface Progress {
  update(done: number, total: number, detail?: string): void;
  finish(): void;
}

const PLAIN_INTERVAL_MS = 2000;
const REDRAW_INTERVAL_MS = 50;

export function createProgress(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr, enabled = true): Progress {
  const interactive = stream.isTTY === true;
  let started = 0;
  let lastPrint = 0;
  let last: { done: number; total: number } | undefined;
  let completed = false;
  let drawn = false;
  const count = (done: number, total: number) => `${label} ${done}/${total} ${unit} (${total > 0 ? Math.floor((done / total) * 100) : 100}%)`;
  const printCompleted = () => {
    completed = true;
    stream.write(`${count(last!.done, last!.total)} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  };
  return {
    update(done, total, detail = "") {
      if (!enabled) return;
      const now = Date.now();
      if (last === undefined) started = lastPrint = now;
      last = { done, total };
      if (interactive) {
        if (now - lastPrint < REDRAW_INTERVAL_MS && done < total && drawn) return;
        const width = Math.max(20, (stream.columns ?? 80) - 1);
        const line = `${count(done, total)} ${detail}`;
        stream.write(`\r${line.length > width ? `${line.slice(0, width - 1)}…` : line.padEnd(width)}`);
        drawn = true;
        lastPrint = now;
      } else if (done >= total) {
        if (!completed) printCompleted();
      } else if (now - lastPrint >= PLAIN_INTERVAL_MS) {
        stream.write(`${count(done, total)}\n`);
        lastPrint = now;
      }
    },
    finish() {
      if (!enabled) return;
      if (interactive && drawn) stream.write(`\r${" ".repeat(Math.max(20, (stream.columns ?? 80) - 1))}\r`);
      // A stage that stopped short of its total (an error, a budget) still says where it got to.
      else if (!interactive && last !== undefined && !completed) printCompleted();
    },
  };
}
