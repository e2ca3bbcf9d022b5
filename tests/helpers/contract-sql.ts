/**
 * The contract suites' reads of what no port shows (an upload's held chunks, an archive row's token) and the states
 * no port makes (a row as retention, a crash or an older version left it), by name, over the suite's raw SQL: the one
 * place a schema change reaches those suites (job-rows.ts holds a job's row; store-reads.ts a running service's).
 */
import postgres from "postgres";
import type { RawSql } from "./contract-stores.ts";

export function contractSql(sql: RawSql) {
  return {
    /** Every save's SHA-256 (hex), player id and origin, oldest first. */
    saves: async () =>
      (await sql.rows("SELECT sha256, player_id, region, data_type FROM saves ORDER BY id")).map((row) => ({
        sha256: String(row.sha256),
        player: String(row.player_id),
        region: row.region === null ? null : String(row.region),
        dataType: String(row.data_type),
      })),
    reportCount: () => sql.scalar("SELECT count(*) FROM reports"),
    /** Every save's id as the owner's view_saves lists it. */
    saveIds: async () => (await sql.column("SELECT save_id FROM view_saves ORDER BY save_id")).map(Number),
    /** Upload tasks: every one, and those still open (not completed). */
    uploadTasks: () => sql.scalar("SELECT count(*) FROM upload_tasks"),
    openUploadTasks: () => sql.scalar("SELECT count(*) FROM upload_tasks WHERE completed_at IS NULL"),
    /** Chunks held for open uploads. */
    heldChunks: () => sql.scalar("SELECT count(*) FROM upload_task_chunks"),
    /** The archive rows, by save (their token and created_at, which no port shows). */
    archives: () => sql.rows(`SELECT save_id AS "saveId", player_id AS "playerId", rel_path AS "relPath", token, created_at AS "createdAt" FROM archives ORDER BY save_id`),

    /** The save's job deleted (as retention does, or a crash left it): no port deletes a job alone. */
    dropJobOfSave: (saveId: number) => sql.exec(`DELETE FROM jobs WHERE save_id = ${Number(saveId)}`),
    /** Every job deleted (as retention does once a save's job is done). */
    dropJobs: () => sql.exec("DELETE FROM jobs"),
    /** The save's deliveries removed behind the stores' back. */
    dropDeliveriesOf: (saveId: number) => sql.exec(`DELETE FROM deliveries WHERE save_id = ${Number(saveId)}`),
    /** The save's stored outputs model replaced (null: none stored, as an older version left it). */
    setOutputs: (saveId: number, outputs: object | null) => sql.exec(`UPDATE saves SET outputs = ? WHERE id = ${Number(saveId)}`, [outputs]),
    /** The save's archive without a digest, as made before digests. */
    dropArchiveDigest: (saveId: number) => sql.exec(`UPDATE archives SET digest = NULL WHERE save_id = ${Number(saveId)}`),
    /** Every stored `/msr` pair's mode changed behind the store's back. */
    setSubscriptionModes: (mode: string) => sql.exec("UPDATE msr_subscription_players SET mode = ?", [mode]),
    /** A report's candidates' seq reversed (their order of insertion no longer their order). */
    reverseCandidates: async (reportId: number, count: number) => {
      await sql.exec(`UPDATE report_candidates SET seq = seq + ${count} WHERE report_id = ${Number(reportId)}`);
      await sql.exec(`UPDATE report_candidates SET seq = ${2 * count - 1} - seq WHERE report_id = ${Number(reportId)}`);
    },
  };
}

/** Another process of the hub holding the advisory lock `key` names, until the release. */
export async function holdAdvisoryLock(url: string, key: string): Promise<() => Promise<void>> {
  const other = postgres(url, { max: 1, onnotice: () => {} });
  await other.unsafe(`SELECT pg_advisory_lock(${key})`);
  return async () => void (await other.end());
}

export type ContractSql = ReturnType<typeof contractSql>;
