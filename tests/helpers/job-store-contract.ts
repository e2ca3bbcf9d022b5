/** The job store contract suites' rows and claims (tests/contract/job-store.*.contract.test.ts), on the store under test. */
import type { ClaimedJob, JobRow } from "../../src/store/model/jobs.ts";
import type { StoreUnderTest } from "./contract-stores.ts";

export const T0 = 1_700_000_000_000;
export const LEASE = 60_000;
export const BACKOFF = [1_000, 2_000];
export const SUBSCRIBED = "7485938820123456789";
export const UNSUBSCRIBED = "9007199254740993123";
export const FORGOTTEN = "1000000000000000001";
export const DAY = 24 * 3600_000;

export function jobStoreFixture(s: StoreUnderTest) {
  /** One process per SQLite file: every running job is its holder's orphan at start-up, not only expired ones. */
  const reclaimsLiveLeases = !s.hub;
  const f = {
    job: (id: number) => s.jobRows.job(id),
    jobOfSave: (saveId: number) => s.jobRows.jobOfSave(saveId),
    setJob: (id: number, fields: Partial<JobRow>) => s.jobRows.set(id, fields),
    another: async () => (await s.another()).jobs,
    /** A bot's `/msr` list naming these players, as PUT update_msr_sub stores it (`haruki`: another service's copy). */
    subscribe: (playerIds: string[], at: number, tokenName = "bot", mode = "latest") => s.stores.dataReads.subscribe(tokenName, "jp", { pairs: playerIds.map((uid) => ({ uid, mode })), peer: "127.0.0.1", bytes: 100 } as never, at),
    /** A save whose job retention deleted (the job written by SQL: no port deletes one alone). */
    saveWithoutJob: async (at: number) => {
      const saveId = await s.rows.save({ at });
      await s.stored.dropJobOfSave(saveId);
      return saveId;
    },
    /** A delivery of the save to `target` in `state`, as the notify stage leaves it after three tries (no port writes one without its job's lease). */
    addDelivery: (saveId: number, target: string, state: "pending" | "sent" | "failed", at: number) =>
      s.sql.insert("deliveries", {
        saveId,
        channel: "bark",
        target,
        state,
        attempts: state === "pending" ? 0 : 3,
        nextAttemptAt: at,
        lastError: state === "failed" ? "HTTP 500" : null,
        sentAt: state === "sent" ? at : null,
        createdAt: at,
      }),
    deliveriesOf: async (saveId: number) => (await s.stores.deliveries.ofSave(saveId)).sort((a, b) => a.target.localeCompare(b.target)),
  };

  /** A save's job, enqueued as an upload does, then given `fields` directly; returns its id. */
  const addJob = async (runAt: number, fields: Partial<JobRow> = {}, playerId?: string) => {
    const saveId = await s.rows.save({ at: runAt, playerId, implausible: fields.implausible ?? false });
    const { id } = await f.jobOfSave(saveId);
    if (Object.keys(fields).length > 0) await f.setJob(id, fields);
    return id;
  };
  const claim = async (now: number, plausibleOnly = false) => (await s.stores.jobs.claim(now, LEASE, plausibleOnly))?.id ?? null;
  const claimed = async (now: number): Promise<ClaimedJob> => {
    const job = await s.stores.jobs.claim(now, LEASE, false);
    if (!job) throw new Error("nothing claimed");
    return job;
  };
  return { reclaimsLiveLeases, f, addJob, claim, claimed };
}
