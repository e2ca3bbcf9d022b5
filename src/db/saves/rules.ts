/**
 * Saves, written here alone (both stores): the statements in plain SQL both dialects read alike, and the rule
 * that runs them, once. A save is deduplicated by the sha256 of its encrypted bytes and enters with its first job;
 * an `unknown` save adopts a real player id from a later arrival, and its maps are drawn again. The unique index
 * decides between processes: the same save arriving at two at once makes one row and one job (the second insert
 * waits for the first to commit, then does nothing and finds its row).
 */
import { sql, type SQL } from "drizzle-orm";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import type { SaveOutputs } from "../../maps/save-outputs.ts";
import { NO_ORIGIN, SAVE_ORIGIN_COLUMNS, type NewSave, type SaveOrigin, type StoredSave } from "../../store/model/saves.ts";
import { read } from "../dialect/statements.ts";
import { step, type Maybe, type SqlRunner, type Steps } from "../dialect/steps.ts";

/** What a store gives the save rule: its statement runner and its job queue's part. */
export interface SaveDialect {
  sql: SqlRunner;
  enqueueSave(saveId: number, at: number, implausible: boolean): Maybe<void>;
  /** Locks the save's job row for the transaction (PostgreSQL: taken before the save's row, as a stage's record does); SQLite's single writer needs none. */
  lockSaveJob(saveId: number): Maybe<void>;
  requeueForRedraw(saveId: number, now: number): Maybe<void>;
}

const ORIGIN_FIELDS = Object.keys(SAVE_ORIGIN_COLUMNS) as (keyof SaveOrigin)[];
const ORIGIN_COLUMNS = sql.raw(ORIGIN_FIELDS.map((field) => SAVE_ORIGIN_COLUMNS[field]).join(", "));

/** notify's verdict on save $1 (src/db/deliveries/push-decision.ts): the last pushed save with the same drops ($2), or null. */
export const REPEAT_OF = read(`UPDATE saves SET repeat_of = $2 WHERE id = $1`);

export const saveStatements = {
  bySha: (sha256: string) => sql`SELECT id, player_id AS "playerId" FROM saves WHERE sha256 = ${sha256}`,
  /**
   * The one insert of a save, for the rule and for PostgreSQL's one-statement upload (src/db/saves/pg.ts), which
   * sends the bytes its own way (`encrypted`) and wants more back (`returning`): a column added here reaches both.
   */
  insertOnce: (save: NewSave & { sha256: string }, encrypted: Uint8Array | SQL = save.encrypted, returning: SQL = sql`id`) => {
    const origin = save.origin ?? NO_ORIGIN;
    return sql`INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at, ${ORIGIN_COLUMNS})
      VALUES (${save.sha256}, ${save.playerId}, ${save.source}, ${encrypted}, ${save.encrypted.byteLength}, ${save.receivedAt}, ${sql.join(ORIGIN_FIELDS.map((field) => sql`${origin[field]}`), sql`, `)})
      ON CONFLICT (sha256) DO NOTHING RETURNING ${returning}`;
  },
  /** Only one of two arrivals naming the player at once adopts it. */
  adopt: (saveId: number, playerId: string) => sql`UPDATE saves SET player_id = ${playerId} WHERE id = ${saveId} AND player_id = ${UNKNOWN_PLAYER} RETURNING id`,
  /** generate's outputs model and drops' fingerprint (a refresh without maps is partial). */
  drawn: (saveId: number, outputs: SaveOutputs, dropsFingerprint: string, onlyIf: SQL = sql`true`) =>
    sql`UPDATE saves SET outputs = ${JSON.stringify(outputs)}, drops_fingerprint = ${dropsFingerprint}, partial = ${outputs.partial} WHERE id = ${saveId} AND ${onlyIf}`,
};

/**
 * The retention sweep's writes to saves (src/db/retention/sqlite.ts, pg.ts), as SQL text in the sweep's own
 * placeholders: junk saves (bytes that cannot be a save, their job failed) past the cutoff go whole, with their job;
 * an archived save's encrypted copy and outputs model are cleared if its sha256 still matches and `finished` (the
 * sweep's condition on `saves.id`) still holds at the commit.
 */
export const saveSweeps = {
  junk: (cutoff: string, limit: string) => `DELETE FROM saves WHERE id IN (
    SELECT save_id FROM jobs WHERE implausible = TRUE AND state = 'failed' AND save_id IS NOT NULL AND updated_at < ${cutoff} LIMIT ${limit})`,
  clearBody: (id: string, sha256: string, finished: (saveId: string) => string) =>
    `UPDATE saves SET encrypted = NULL, outputs = NULL WHERE id = ${id} AND sha256 = ${sha256} AND ${finished("saves.id")}`,
};

export function* saveWithShaSteps(db: SqlRunner, sha256: string): Steps<{ id: number; playerId: string } | undefined> {
  return (yield* step(db.all<{ id: number; playerId: string }>(saveStatements.bySha(sha256))))[0];
}

/** Inserts the save and its generate job, or returns the stored save with the same bytes (which may adopt this player id). */
export function* storeSaveOnceSteps(store: SaveDialect, save: NewSave): Steps<StoredSave> {
  const sha256 = save.sha256 ?? sha256Hex(save.encrypted);
  const [inserted] = yield* step(store.sql.all<{ id: number }>(saveStatements.insertOnce({ ...save, sha256 })));
  if (inserted) {
    yield* step(store.enqueueSave(inserted.id, save.receivedAt, save.implausible === true));
    return { saveId: inserted.id, created: true, adopted: false };
  }
  const existing = (yield* saveWithShaSteps(store.sql, sha256))!;
  if (existing.playerId !== UNKNOWN_PLAYER || save.playerId === UNKNOWN_PLAYER) return { saveId: existing.id, created: false, adopted: false };
  yield* step(store.lockSaveJob(existing.id));
  const adopted = (yield* step(store.sql.all(saveStatements.adopt(existing.id, save.playerId)))).length > 0;
  // The maps show the player id, so they are drawn again.
  if (adopted) yield* step(store.requeueForRedraw(existing.id, Date.now()));
  return { saveId: existing.id, created: false, adopted };
}
