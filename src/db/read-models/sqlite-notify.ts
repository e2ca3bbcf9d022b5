/** What the notify stage reads of a save and its archive (src/pipeline/stages/notify.ts), over SQLite. */
import { eq, getTableColumns } from "drizzle-orm";
import type { NotifyReads } from "../../store/ports/notify.ts";
import type { Db } from "../sqlite/open.ts";
import { archives, saves } from "../schema.ts";

/** Every column of a save but its encrypted bytes, which a push never needs. */
const { encrypted: _encrypted, ...SAVE_FIELDS } = getTableColumns(saves);

export function sqliteNotifyReads(db: Db): NotifyReads {
  return {
    subject: async (saveId) => {
      const save = db.select(SAVE_FIELDS).from(saves).where(eq(saves.id, saveId)).get();
      const archive = db.select().from(archives).where(eq(archives.saveId, saveId)).get();
      return save && archive ? { save, archive } : null;
    },
  };
}
