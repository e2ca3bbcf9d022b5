/** Saves enter the store here, deduplicated by the sha256 of their encrypted bytes, each with its first job. */
import { eq } from "drizzle-orm";
import type { Tx } from "./open.ts";
import { jobs, saves } from "./schema.ts";

export interface NewSave {
  encrypted: Uint8Array;
  playerId: string;
  source: "upload" | "report";
  receivedAt: number;
}

export interface StoredSave {
  saveId: number;
  created: boolean;
}

export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** Inserts the save and its generate job, or returns the existing save with the same bytes. Call inside a transaction. */
export function storeSaveOnce(tx: Tx, save: NewSave): StoredSave {
  const sha256 = sha256Hex(save.encrypted);
  const existing = tx.select({ id: saves.id }).from(saves).where(eq(saves.sha256, sha256)).get();
  if (existing) return { saveId: existing.id, created: false };
  const row = tx
    .insert(saves)
    .values({
      sha256,
      playerId: save.playerId,
      source: save.source,
      encrypted: Buffer.from(save.encrypted.buffer, save.encrypted.byteOffset, save.encrypted.byteLength),
      size: save.encrypted.byteLength,
      receivedAt: save.receivedAt,
    })
    .returning({ id: saves.id })
    .get();
  tx.insert(jobs)
    .values({ saveId: row.id, stage: "generate", state: "pending", runAt: save.receivedAt, createdAt: save.receivedAt, updatedAt: save.receivedAt })
    .run();
  return { saveId: row.id, created: true };
}
