import { openIndexForWrite } from "../../src/store/database.js";

/** Makes an index's dense routing data look as an older release wrote it: its header names no format. */
export function markRoutingDataOlder(file: string): void {
  const writer = openIndexForWrite(file);
  try {
    const header = JSON.parse((writer.prepare("SELECT data FROM routing_data WHERE name = 'dense' AND part = 0").pluck().get() as Buffer).toString("utf8"));
    delete header.format;
    writer.prepare("UPDATE routing_data SET data = ? WHERE name = 'dense' AND part = 0").run(Buffer.from(JSON.stringify(header)));
  } finally {
    writer.close();
  }
}
