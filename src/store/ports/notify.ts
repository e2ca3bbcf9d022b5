/** What the notify stage reads of a save: its row (without the encrypted bytes) and its archive's. */
import type { ArchivesRow } from "../model/archives.ts";
import type { SaveRow } from "../model/saves.ts";

export type NotifySave = Omit<SaveRow, "encrypted">;
export type NotifyArchive = ArchivesRow;

export interface NotifyReads {
  /** The save (without its encrypted bytes) and its archive; null when either is missing. */
  subject(saveId: number): Promise<{ save: NotifySave; archive: NotifyArchive } | null>;
}
