/**
 * Saves enter a hub's PostgreSQL here, as SQLite's src/db/saves.ts: deduplicated by the sha256 of their encrypted
 * bytes, each with its first job; an existing `unknown` save adopts a real player id from the new arrival.
 */
import { eq } from "drizzle-orm";
import { pgEnqueueSave, pgRequeueForRedraw, type PgTx } from "../jobs/pg-writes.ts";
import type { NewSave, StoredSave } from "../saves.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import { saves } from "./schema.ts";

export async function storeSaveOnceIn(tx: PgTx, save: NewSave): Promise<StoredSave> {
  const sha256 = save.sha256 ?? sha256Hex(save.encrypted);
  const { playerId, source, encrypted, receivedAt } = save;
  // Another process storing the same bytes at once: one insert wins, the other finds its row below.
  const [row] = await tx
    .insert(saves)
    .values({ sha256, playerId, source, encrypted, size: encrypted.byteLength, receivedAt, region: save.region ?? null })
    .onConflictDoNothing({ target: saves.sha256 })
    .returning({ id: saves.id });
  if (row) {
    await pgEnqueueSave(tx, row.id, receivedAt, save.implausible === true);
    return { saveId: row.id, created: true, adopted: false };
  }
  const [existing] = await tx.select({ id: saves.id, playerId: saves.playerId }).from(saves).where(eq(saves.sha256, sha256)).for("update");
  if (!existing) throw new Error(`save ${sha256} neither inserted nor found`);
  const adopted = existing.playerId === UNKNOWN_PLAYER && playerId !== UNKNOWN_PLAYER;
  if (adopted) {
    // The maps show the player id, so they are drawn again.
    await tx.update(saves).set({ playerId }).where(eq(saves.id, existing.id));
    await pgRequeueForRedraw(tx, existing.id, Date.now());
  }
  return { saveId: existing.id, created: false, adopted };
}
