/**
 * A job's row as stored, for the contract suites whose subject it is: the lease, the flags and the times no port
 * shows (the owner views and pages show a job's stage, state and error only). Read, and set as a crash or an older
 * version left it, by SQL written here once, the same on both stores.
 */
import type { JobRow } from "../../src/store/model/jobs.ts";
import type { RawSql } from "./contract-stores.ts";

const FLAGS = ["notify", "rerun", "forcePush", "implausible", "subscribed"] as const;
const COLUMNS: Record<keyof JobRow, string> = {
  id: "id",
  saveId: "save_id",
  reportId: "report_id",
  stage: "stage",
  state: "state",
  attempts: "attempts",
  processDeaths: "process_deaths",
  crashes: "crashes",
  runAt: "run_at",
  leaseId: "lease_id",
  leaseExpiresAt: "lease_expires_at",
  notify: "notify",
  rerun: "rerun",
  forcePush: "force_push",
  implausible: "implausible",
  subscribed: "subscribed",
  lastError: "last_error",
  createdAt: "created_at",
  updatedAt: "updated_at",
};
const isFlag = (key: string): key is (typeof FLAGS)[number] => (FLAGS as readonly string[]).includes(key);
const SELECT = Object.entries(COLUMNS)
  .map(([key, column]) => (isFlag(key) ? `CASE WHEN ${column} THEN 1 ELSE 0 END AS "${key}"` : `${column} AS "${key}"`))
  .join(", ");

/** A value as SQL text both stores read alike. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

export interface JobRows {
  /** The jobs `where` (SQL over the table's columns) picks, by id. */
  where: (where: string) => Promise<JobRow[]>;
  /** Every job, by id. */
  all: () => Promise<JobRow[]>;
  /** Sets fields of every job. */
  setAll: (fields: Partial<Omit<JobRow, "id">>) => Promise<void>;
  job: (id: number) => Promise<JobRow>;
  jobOfSave: (saveId: number) => Promise<JobRow>;
  jobOfReport: (reportId: number) => Promise<JobRow>;
  /** Sets fields of a job behind the store's back (a lease run out, a state an older version left). */
  set: (id: number, fields: Partial<Omit<JobRow, "id">>) => Promise<void>;
}

export function jobRows(sql: RawSql): JobRows {
  const where = async (condition: string) =>
    (await sql.rows(`SELECT ${SELECT} FROM jobs WHERE ${condition} ORDER BY id`)).map((row) => {
      const job = row as Record<string, unknown>;
      for (const flag of FLAGS) job[flag] = Number(job[flag]) === 1;
      return job as unknown as JobRow;
    });
  const one = async (condition: string) => {
    const [job] = await where(condition);
    if (!job) throw new Error(`no job where ${condition}`);
    return job;
  };
  const set = async (id: number, fields: Partial<Omit<JobRow, "id">>) => {
    const sets = Object.entries(fields).map(([key, value]) => `${COLUMNS[key as keyof JobRow]} = ${literal(value)}`);
    if (sets.length > 0) await sql.exec(`UPDATE jobs SET ${sets.join(", ")} WHERE id = ${id}`);
  };
  return {
    where,
    all: () => where("1 = 1"),
    setAll: async (fields) => {
      for (const job of await where("1 = 1")) await set(job.id, fields);
    },
    job: (id) => one(`id = ${id}`),
    jobOfSave: (saveId) => one(`save_id = ${saveId}`),
    jobOfReport: (reportId) => one(`report_id = ${reportId}`),
    set,
  };
}
