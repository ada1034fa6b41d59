/** Progress on stderr: one redrawn line on a terminal, an occasional plain line otherwise (logs, CI). */
export interface Progress {
  update(done: number, total: number, detail?: string): void;
  finish(message?: string): void;
}

const PLAIN_INTERVAL_MS = 2000;

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, enabled = true): Progress {
  const interactive = stream.isTTY === true;
  let lastPrint = 0;
  let drawn = false;
  return {
    update(done, total, detail = "") {
      if (!enabled) return;
      const now = Date.now();
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      if (interactive) {
        if (now - lastPrint < 50 && done < total) return;
        const width = Math.max(20, (stream.columns ?? 80) - 1);
        const line = `${label} ${done}/${total} (${percent}%) ${detail}`;
        stream.write(`\r${line.length > width ? `${line.slice(0, width - 1)}…` : line.padEnd(width)}`);
        drawn = true;
      } else {
        if (now - lastPrint < PLAIN_INTERVAL_MS && done < total) return;
        stream.write(`${label} ${done}/${total} (${percent}%)\n`);
      }
      lastPrint = now;
    },
    finish(message) {
      if (!enabled) return;
      if (interactive && drawn) stream.write(`\r${" ".repeat(Math.max(20, (stream.columns ?? 80) - 1))}\r`);
      if (message) stream.write(`${message}\n`);
    },
  };
}
