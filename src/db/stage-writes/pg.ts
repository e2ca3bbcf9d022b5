/**
 * The stages' writes over a hub's PostgreSQL: the rows of ./rules.ts and the job's fenced change in one
 * transaction. The fence goes first, so a holder that lost its lease takes no other row lock and records nothing.
 */
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { record, type ClaimedJob, type Transition } from "../jobs/index.ts";
import type { Recorded, StageStore, StageWrites } from "../../store/ports/stage-writes.ts";
import { pgRecordedChangeSql } from "../jobs/pg.ts";
import { pgFlow } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { pgRunner } from "../dialect/pg-runner.ts";
import { archives, reportCandidates, reports, saves } from "../pg/schema.ts";
import { pgSaveDialect } from "../saves/pg.ts";
import { saveStatements } from "../saves/rules.ts";
import { runStepsAsync } from "../dialect/steps.ts";
import { applyWritesSteps, archiveFolderClaim } from "./rules.ts";

/** A save's columns, its bytes read as base64 text: a third less on the wire than postgres-js's bytea hex. */
const SAVE_WITH_BASE64_BYTES = {
  ...getTableColumns(saves),
  encrypted: sql<string | null>`encode(${saves.encrypted}, 'base64')`.mapWith((base64: string): Uint8Array => Buffer.from(base64, "base64")),
};

export function pgStageStore(db: PgDb): StageStore {
  return {
    // Every commit waits for the disk here: `durable` is SQLite's choice. Without rows to write, the fenced
    // change alone needs no transaction around it (one statement, or two for a redraw, as the job store records).
    record: async (job, writes, change, now) => {
      if (writes === undefined) return { moved: await pgFlow(db, record(job, change, now)) };
      if (writes.kind === "drawn" && (await recordDrawnAtOnce(db, job, writes, change, now))) return { moved: "recorded" };
      return db.transaction(async (tx): Promise<Recorded> => {
        const moved = await pgFlow(tx, record(job, change, now));
        return { moved, saved: await runStepsAsync(applyWritesSteps(pgSaveDialect(tx), writes, now)) };
      });
    },
    saveToDraw: async (saveId) => {
      const [row] = await db.select({ save: SAVE_WITH_BASE64_BYTES, archivePath: archives.relPath }).from(saves).leftJoin(archives, eq(archives.saveId, saves.id)).where(eq(saves.id, saveId));
      return row ?? null;
    },
    // A conflict waits for a concurrent claim's commit.
    claimArchiveFolder: async (saveId, relPath) => (await pgRunner(db).all<{ saveId: number }>(archiveFolderClaim(saveId, relPath)))[0]!.saveId === saveId,
    reportToEvaluate: async (reportId) => {
      const [report] = await db.select().from(reports).where(eq(reports.id, reportId));
      return report ? { report, candidates: await db.select().from(reportCandidates).where(eq(reportCandidates.reportId, reportId)).orderBy(asc(reportCandidates.seq)) } : null;
    },
    playerOf: async (saveId) => (await db.select({ playerId: saves.playerId }).from(saves).where(eq(saves.id, saveId)))[0]?.playerId,
  };
}

/**
 * generate's record in one statement (one round trip, no BEGIN or COMMIT): the fenced change first, then the
 * save's outputs and its archives row, each only if the fence held. Whether it held; when not (the lease is lost,
 * or a redraw was flagged) nothing was written, and the transaction of record() decides.
 */
async function recordDrawnAtOnce(db: PgDb, job: ClaimedJob, writes: Extract<StageWrites, { kind: "drawn" }>, change: Transition, now: number): Promise<boolean> {
  const { saveId, outputs, dropsFingerprint, archive } = writes;
  const { playerId, relPath, files, digest, token } = archive;
  const held = sql`EXISTS (SELECT 1 FROM fence)`;
  const [row] = await db.execute<{ fenced: number }>(sql`
    WITH fence AS (${pgRecordedChangeSql(job, change, now)}),
    drawn AS (${saveStatements.drawn(saveId, outputs, dropsFingerprint, held)}),
    archived AS (INSERT INTO archives (save_id, player_id, rel_path, token, files, digest, created_at)
      SELECT ${saveId}::int, ${playerId}::text, ${relPath}::text, ${token}::text, ${JSON.stringify(files)}::jsonb, ${JSON.stringify(digest)}::jsonb, ${now}::bigint WHERE ${held}
      ON CONFLICT (save_id) DO UPDATE SET player_id = excluded.player_id, rel_path = excluded.rel_path, files = excluded.files, digest = excluded.digest)
    SELECT count(*)::int AS fenced FROM fence`);
  return row!.fenced === 1;
}
