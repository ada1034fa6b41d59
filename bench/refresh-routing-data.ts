import { buildRoutingData, hasCurrentRoutingData } from "../src/indexer/build-routing-data.js";
import { openIndexForWrite } from "../src/store/database.js";

/** A cached index whose routing data an older release wrote gets it written anew, as its next `router index` would do. */
export function refreshRoutingData(file: string): void {
  const db = openIndexForWrite(file);
  try {
    if (!hasCurrentRoutingData(db)) db.transaction(() => buildRoutingData(db))();
  } finally {
    db.close();
  }
}
