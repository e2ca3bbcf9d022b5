/** What the notify stage reads of a save and its archive (src/pipeline/stages/notify.ts), on a hub's PostgreSQL (SQLite's: sqlite-notify.ts). */
import { eq, getTableColumns } from "drizzle-orm";
import type { NotifyReads } from "../../store/ports/notify.ts";
import type { PgDb } from "../pg/open.ts";
import { archives, saves } from "../pg/schema.ts";

/** Every column of a save but its encrypted bytes, which a push never needs. */
const { encrypted: _encrypted, ...SAVE_FIELDS } = getTableColumns(saves);

export function pgNotifyReads(db: PgDb): NotifyReads {
  return {
    subject: async (saveId) => {
      const [row] = await db.select({ save: SAVE_FIELDS, archive: archives }).from(saves).innerJoin(archives, eq(archives.saveId, saves.id)).where(eq(saves.id, saveId));
      return row ?? null;
    },
  };
}
