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
    /** Every row of a table, every column (a new one too): what a search for a stored secret, or a table's bound, reads. */
    everyRowOf: (table: "owner_sessions" | "settings" | "players" | "login_failures" | "api_tokens" | "public_players") => sql.rows(`SELECT * FROM ${table}`),
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
    /** A report as retention judges it: whether it is kept, and how many candidate bodies it holds. */
    report: async (reportId: number) => ({
      exists: (await sql.scalar(`SELECT count(*) FROM reports WHERE id = ${Number(reportId)}`)) === 1,
      candidates: await sql.scalar(`SELECT count(*) FROM report_candidates WHERE report_id = ${Number(reportId)}`),
    }),
    /** A save as retention judges it (undefined once deleted): its bytes' SHA-256, whether its body and outputs are kept, its job, its deliveries, its archive row. */
    save: async (saveId: number) => {
      const id = Number(saveId);
      const [save] = await sql.rows(`SELECT sha256, CASE WHEN encrypted IS NULL THEN 0 ELSE 1 END AS body, CASE WHEN outputs IS NULL THEN 0 ELSE 1 END AS outputs FROM saves WHERE id = ${id}`);
      const [archive] = await sql.rows(`SELECT files, rel_path FROM archives WHERE save_id = ${id}`);
      return {
        sha256: (save?.sha256 as string | undefined) ?? null,
        exists: save !== undefined,
        hasBody: Number(save?.body) === 1,
        hasOutputs: Number(save?.outputs) === 1,
        hasJob: (await sql.scalar(`SELECT count(*) FROM jobs WHERE save_id = ${id}`)) === 1,
        deliveries: await sql.scalar(`SELECT count(*) FROM deliveries WHERE save_id = ${id}`),
        archive: archive && { relPath: String(archive.rel_path), files: (typeof archive.files === "string" ? JSON.parse(archive.files) : archive.files) as string[] },
      };
    },

    /** When the report was processed (null: never), as the evaluate stage leaves it. */
    reportProcessedAt: (reportId: number, at: number | null) => sql.exec(`UPDATE reports SET processed_at = ${at === null ? "NULL" : Number(at)} WHERE id = ${Number(reportId)}`),
    /** The report's job deleted (as retention does). */
    dropJobOfReport: (reportId: number) => sql.exec(`DELETE FROM jobs WHERE report_id = ${Number(reportId)}`),
    /** An archive row as the generate stage records it, without a digest. */
    addArchive: (saveId: number, playerId: string, relPath: string, token: string, files: string[], at: number) =>
      sql.exec(`INSERT INTO archives (save_id, player_id, rel_path, token, files, created_at) VALUES (?, ?, ?, ?, '${JSON.stringify(files).replaceAll("'", "''")}', ?)`, [saveId, playerId, relPath, token, at]),
    /** `n` done save jobs at `at` (saves without bodies or archives), in two statements: batch tests. */
    addDoneSaves: async (n: number, playerId: string, at: number) => {
      const numbers = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Number(n)})`;
      await sql.exec(`${numbers} INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at) SELECT 'bulk-' || i, '${playerId.replaceAll("'", "''")}', 'upload', NULL, 16, ${Number(at)} FROM n`);
      await sql.exec(`INSERT INTO jobs (save_id, stage, state, run_at, created_at, updated_at) SELECT id, 'done', 'done', ${Number(at)}, ${Number(at)}, ${Number(at)} FROM saves WHERE sha256 LIKE 'bulk-%'`);
    },
    /** `count` peers with one failure each, the i-th at `at + i`: a cap filled in one statement (not `count` records). */
    seedLoginFailures: (count: number, at: number) =>
      sql.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${Number(count) - 1}) INSERT INTO login_failures (peer, failures, last_failure) SELECT 'p' || i, 1, ${Number(at)} + i FROM n`),
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
