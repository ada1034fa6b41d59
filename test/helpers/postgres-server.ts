import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A PostgreSQL server of this machine's own, in a temporary folder, for one test file or one bench run. */
export interface TestPostgres {
  /** postgres://router@127.0.0.1:<port>/router: trust authentication on loopback, no password. */
  url: string;
  port: number;
  /** Where its unix socket is (`?host=<socketDir>` reaches it without TCP). */
  socketDir: string;
  /** Stops it (fast shutdown); `start()` brings it back on the same port and data. */
  stop(): void;
  start(): void;
  /** Stops it and removes its folder. */
  remove(): void;
}

const ROOT = "/usr/lib/postgresql";

/** The folder of Debian's PostgreSQL binaries (the newest installed), or undefined when none is installed. */
export function postgresBinaries(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((version) => existsSync(path.join(ROOT, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(ROOT, versions[0], "bin");
}

/** Why tests that need PostgreSQL are skipped here, or undefined when they can run. */
export const POSTGRES_MISSING = postgresBinaries() === undefined ? `no PostgreSQL server binaries under ${ROOT} (apt-get install postgresql)` : undefined;

/**
 * initdb into a temporary folder and start the server on a free loopback port, with its socket in that folder.
 * initdb and postgres refuse to run as root: as root they run as the `postgres` user (Debian's package makes it), or
 * `nobody` without it. `fast` turns fsync off (tests); a bench keeps PostgreSQL's durable defaults.
 */
export async function startPostgres(options: { fast?: boolean } = {}): Promise<TestPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(POSTGRES_MISSING);
  const dir = mkdtempSync(path.join(tmpdir(), "skill-router-pg-"));
  const data = path.join(dir, "data");
  const asUser = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  if (asUser) {
    chmodSync(dir, 0o777);
    execFileSync("chown", [asUser, dir]);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asUser ? ["runuser", ["-u", asUser, "--", path.join(bin, command), ...args]] : [path.join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  run("initdb", ["-D", data, "-U", "router", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const settings = [
    `-c listen_addresses=127.0.0.1`,
    `-c port=${port}`,
    `-c unix_socket_directories=${dir}`,
    "-c max_connections=100",
    ...(options.fast ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"] : []),
  ].join(" ");
  const start = () => run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", settings, "-w", "-t", "60", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  run("createdb", ["-h", dir, "-p", String(port), "-U", "router", "router"]);
  let running = true;
  return {
    url: `postgres://router@127.0.0.1:${port}/router`,
    port,
    socketDir: dir,
    stop() {
      if (running) stop();
      running = false;
    },
    start() {
      if (!running) start();
      running = true;
    },
    remove() {
      if (running) stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function unprivilegedUser(): string {
  return spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody";
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
