/** Saves enter the store here, deduplicated by the sha256 of their encrypted bytes, each with its first job. */
import { eq, sql } from "drizzle-orm";
import type { DataType } from "../../capture/data-types.ts";
import type { Region } from "../../capture/regions.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { prepared, type Tx } from "../open.ts";
import { enqueueSave, requeueForRedraw } from "../jobs/index.ts";
import { saves } from "../schema.ts";
import { sha256Hex } from "../../sha256.ts";

export interface NewSave {
  encrypted: Uint8Array;
  playerId: string;
  source: "upload" | "report";
  receivedAt: number;
  /** sha256 of `encrypted` when the caller has it already. */
  sha256?: string;
  /** The bytes cannot be a save under the configured keys (src/save/plausible.ts): its job runs last. */
  implausible?: boolean;
  /** The region of the capture URL's game host, if it named a known one. */
  region?: Region | null;
  /** What the capture URL says the answer is (src/capture/data-types.ts); the save when it names none. */
  dataType?: DataType;
}

export interface StoredSave {
  saveId: number;
  created: boolean;
  /** The save was held as `unknown` and took this arrival's player id: its job runs again from generate. */
  adopted: boolean;
}

/** Every upload and report runs these (src/db/open.ts `prepared`). */
const saveQueries = (tx: Tx) => ({
  bySha: tx.select({ id: saves.id, playerId: saves.playerId }).from(saves).where(eq(saves.sha256, sql.placeholder("sha256"))).prepare(),
  insert: tx
    .insert(saves)
    .values({
      sha256: sql.placeholder("sha256"),
      playerId: sql.placeholder("playerId"),
      source: sql.placeholder("source"),
      encrypted: sql.placeholder("encrypted"),
      size: sql.placeholder("size"),
      receivedAt: sql.placeholder("receivedAt"),
      region: sql.placeholder("region"),
      dataType: sql.placeholder("dataType"),
    })
    .returning({ id: saves.id })
    .prepare(),
});

/**
 * Inserts the save and its generate job, or returns the existing save with the same bytes. An existing
 * `unknown` save adopts a real player id from the new arrival.
 */
export function storeSaveOnce(tx: Tx, save: NewSave): StoredSave {
  const sha256 = save.sha256 ?? sha256Hex(save.encrypted);
  const existing = saveWithSha(tx, sha256);
  if (existing) {
    const adopted = existing.playerId === UNKNOWN_PLAYER && save.playerId !== UNKNOWN_PLAYER;
    if (adopted) adoptPlayer(tx, existing.id, save.playerId, Date.now());
    return { saveId: existing.id, created: false, adopted };
  }
  const queries = prepared(tx, saveQueries);
  const { playerId, source, encrypted, receivedAt } = save;
  const row = queries.insert.get({ sha256, playerId, source, encrypted, size: encrypted.byteLength, receivedAt, region: save.region ?? null, dataType: save.dataType ?? "mysekai" })!;
  enqueueSave(tx, row.id, receivedAt, save.implausible === true);
  return { saveId: row.id, created: true, adopted: false };
}

/** The save whose encrypted bytes hash to `sha256`, if one was stored. */
export function saveWithSha(tx: Tx, sha256: string): { id: number; playerId: string } | undefined {
  return prepared(tx, saveQueries).bySha.get({ sha256 });
}

/** The maps show the player id, so they are drawn again. */
function adoptPlayer(tx: Tx, saveId: number, playerId: string, now: number): void {
  tx.update(saves).set({ playerId }).where(eq(saves.id, saveId)).run();
  requeueForRedraw(tx, saveId, now);
}
