import { Option } from "commander";
import { DEFAULT_DB_PATH } from "../store/default-path.js";

/** `--db FILE`, shared by every command that reads or writes an index; ROUTER_DB sets the default. */
export function dbOption(): Option {
  return new Option("--db <file>", "index file").env("ROUTER_DB").default(DEFAULT_DB_PATH);
}
