/**
 * Saves enter a hub's PostgreSQL here, as ../saves.ts does it over SQLite: deduplicated by the sha256 of their
 * encrypted bytes, each new one with its first job in the caller's transaction. The unique index decides between
 * processes: the same save arriving at two at once makes one row and one job (the second insert waits for the
 * first to commit, then does nothing and finds its row).
 */
import { and, eq, sql } from "drizzle-orm";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import { pgEnqueueSave, pgLockSaveJob, pgRequeueForRedraw } from "../jobs/pg-enqueue.ts";
import type { NewSave, StoredSave } from "./sqlite.ts";
import type { PgTx } from "../pg/open.ts";
import { saves } from "../pg/schema.ts";

export async function pgStoreSaveOnce(tx: PgTx, save: NewSave): Promise<StoredSave> {
  const sha256 = save.sha256 ?? sha256Hex(save.encrypted);
  const { playerId, source, encrypted, receivedAt } = save;
  const [inserted] = await tx
    .insert(saves)
    .values({ sha256, playerId, source, encrypted, size: encrypted.byteLength, receivedAt, region: save.region ?? null, dataType: save.dataType ?? "mysekai" })
    .onConflictDoNothing({ target: saves.sha256 })
    .returning({ id: saves.id });
  if (inserted) {
    await pgEnqueueSave(tx, inserted.id, receivedAt, save.implausible === true);
    return { saveId: inserted.id, created: true, adopted: false };
  }
  const existing = (await pgSaveWithSha(tx, sha256))!;
  if (existing.playerId !== UNKNOWN_PLAYER || playerId === UNKNOWN_PLAYER) return { saveId: existing.id, created: false, adopted: false };
  // Only one of two arrivals naming the player at once adopts (and requeues) it; the job is locked before the save.
  await pgLockSaveJob(tx, existing.id);
  const adopted = await tx
    .update(saves)
    .set({ playerId })
    .where(and(eq(saves.id, existing.id), eq(saves.playerId, UNKNOWN_PLAYER)))
    .returning({ id: saves.id });
  if (adopted.length > 0) await pgRequeueForRedraw(tx, existing.id, Date.now());
  return { saveId: existing.id, created: false, adopted: adopted.length > 0 };
}

/**
 * pgStoreSaveOnce's insert as SQL for a data-modifying CTE: the new save's `id`, or no row when its sha256 is stored.
 * The bytes go as base64 text, a third less on the wire than postgres-js's bytea hex.
 */
export function pgInsertSaveOnce(save: NewSave & { sha256: string }) {
  const { sha256, playerId, source, encrypted, receivedAt } = save;
  const base64 = Buffer.from(encrypted.buffer, encrypted.byteOffset, encrypted.byteLength).toString("base64");
  return sql`INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at, region, data_type)
    VALUES (${sha256}, ${playerId}, ${source}, decode(${base64}, 'base64'), ${encrypted.byteLength}, ${receivedAt}, ${save.region ?? null}, ${save.dataType ?? "mysekai"})
    ON CONFLICT (sha256) DO NOTHING RETURNING id, player_id`;
}

export async function pgSaveWithSha(tx: PgTx, sha256: string): Promise<{ id: number; playerId: string } | undefined> {
  const [row] = await tx.select({ id: saves.id, playerId: saves.playerId }).from(saves).where(eq(saves.sha256, sha256));
  return row;
}
