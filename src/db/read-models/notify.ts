/** What the notify stage reads of a save and its archive (src/pipeline/stages/notify.ts), written once for both stores over their statements (src/db/dialect/). */
import type { NotifyArchive, NotifyReads, NotifySave } from "../../store/ports/notify.ts";
import { rowOf } from "../dialect/rows.ts";
import { first, read, type Reader } from "../dialect/statements.ts";
import { archives, saves } from "../schema.ts";

/** Every column of a save but its encrypted bytes, which a push never needs. */
const SAVE = rowOf<NotifySave>(saves, "s", { without: ["encrypted"] });
const ARCHIVE = rowOf<NotifyArchive>(archives, "a");
const SAVE_BY_ID = read<NotifySave>(`SELECT ${SAVE.columns} FROM saves s WHERE s.id = $1`, SAVE.kinds);
const ARCHIVE_OF = read<NotifyArchive>(`SELECT ${ARCHIVE.columns} FROM archives a WHERE a.save_id = $1`, ARCHIVE.kinds);

export function notifyReads(reader: Reader): NotifyReads {
  return {
    subject: async (saveId) => {
      const [save, archive] = await Promise.all([first(reader, SAVE_BY_ID, [saveId]), first(reader, ARCHIVE_OF, [saveId])]);
      return save && archive ? { save, archive } : null;
    },
  };
}
