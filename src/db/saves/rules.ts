/**
 * Saves, written here alone (both stores): the statements in plain SQL both dialects read alike, and the rule
 * that runs them, once. A save is deduplicated by the sha256 of its encrypted bytes and enters with its first job;
 * an `unknown` save adopts a real player id from a later arrival, and its maps are drawn again. The unique index
 * decides between processes: the same save arriving at two at once makes one row and one job (the second insert
 * waits for the first to commit, then does nothing and finds its row).
 */
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import { sha256Hex } from "../../sha256.ts";
import type { SaveOutputs } from "../../maps/save-outputs.ts";
import { NO_ORIGIN, SAVE_ORIGIN_COLUMNS, type NewSave, type SaveOrigin, type StoredSave } from "../../store/model/saves.ts";
import { enqueueSave, lockSaveJob, requeueForRedraw } from "../jobs/queue.ts";
import { read, run, type Flow, type Param } from "../dialect/statements.ts";

const ORIGIN_FIELDS = Object.keys(SAVE_ORIGIN_COLUMNS) as (keyof SaveOrigin)[];

/** notify's verdict on save $1 (src/db/deliveries/push-decision.ts): the last pushed save with the same drops ($2), or null. */
export const REPEAT_OF = read(`UPDATE saves SET repeat_of = $2 WHERE id = $1`);

const BY_SHA = read<{ id: number; playerId: string }>(`SELECT id, player_id AS "playerId" FROM saves WHERE sha256 = $1`);
/**
 * The one insert of a save (insertOnceParams), for the rule and for PostgreSQL's one-statement upload
 * (src/db/saves/pg.ts), which embeds this text and reads `player_id` back too: a column added here reaches both.
 */
export const INSERT_ONCE = read<{ id: number }>(
  (d) => `INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at, ${ORIGIN_FIELDS.map((field) => SAVE_ORIGIN_COLUMNS[field]).join(", ")})
    VALUES ($1, $2, $3, ${d.bytes("$4")}, $5, $6, ${ORIGIN_FIELDS.map((_, i) => `$${7 + i}`).join(", ")})
    ON CONFLICT (sha256) DO NOTHING RETURNING id, player_id`,
);
export function insertOnceParams(save: NewSave & { sha256: string }): Param[] {
  const origin = save.origin ?? NO_ORIGIN;
  return [save.sha256, save.playerId, save.source, save.encrypted, save.encrypted.byteLength, save.receivedAt, ...ORIGIN_FIELDS.map((field) => origin[field])];
}
/** Only one of two arrivals naming the player at once adopts it ($3: the `unknown` it replaces). */
const ADOPT = read<{ id: number }>(`UPDATE saves SET player_id = $2 WHERE id = $1 AND player_id = $3 RETURNING id`);
/** generate's outputs model and drops' fingerprint (a refresh without maps is partial), by drawnParams; `onlyIf`: PostgreSQL's one-statement record's fence (src/db/stage-writes/pg.ts). */
export const drawnText = (onlyIf: string) => `UPDATE saves SET outputs = $2, drops_fingerprint = $3, partial = $4 WHERE id = $1 AND ${onlyIf}`;
export const DRAWN = read(drawnText("TRUE"));
export const drawnParams = (saveId: number, outputs: SaveOutputs, dropsFingerprint: string): Param[] => [saveId, JSON.stringify(outputs), dropsFingerprint, outputs.partial];

/**
 * The retention sweep's writes to saves (src/db/retention/statements.ts), as SQL text in the sweep's own
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

export function* saveWithSha(sha256: string): Flow<{ id: number; playerId: string } | undefined> {
  return (yield* run(BY_SHA, [sha256]))[0];
}

/** Inserts the save and its generate job, or returns the stored save with the same bytes (which may adopt this player id). */
export function* storeSaveOnce(save: NewSave): Flow<StoredSave> {
  const sha256 = save.sha256 ?? sha256Hex(save.encrypted);
  const [inserted] = yield* run(INSERT_ONCE, insertOnceParams({ ...save, sha256 }));
  if (inserted) {
    yield* enqueueSave(inserted.id, save.receivedAt, save.implausible === true);
    return { saveId: inserted.id, created: true, adopted: false };
  }
  const existing = (yield* saveWithSha(sha256))!;
  if (existing.playerId !== UNKNOWN_PLAYER || save.playerId === UNKNOWN_PLAYER) return { saveId: existing.id, created: false, adopted: false };
  yield* lockSaveJob(existing.id);
  const adopted = (yield* run(ADOPT, [existing.id, save.playerId, UNKNOWN_PLAYER])).length > 0;
  // The maps show the player id, so they are drawn again.
  if (adopted) yield* requeueForRedraw(existing.id, Date.now());
  return { saveId: existing.id, created: false, adopted };
}
