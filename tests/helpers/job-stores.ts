/**
 * The two job stores side by side for the contract suite (tests/unit/job-store.contract.test.ts): each with a
 * way to add saves and reports, read a job row and set its fields directly, the same for both dialects.
 */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type FixtureKind } from "./store-handles.ts";
import { eq } from "drizzle-orm";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { putMsrSubscription } from "../../src/db/owner/sqlite-msr-subscriptions.ts";
import { pgPutMsrSubscription } from "../../src/db/owner/pg-msr-subscriptions.ts";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";
import type { JobStore } from "../../src/store/ports/jobs.ts";

/** The job rules' vocabulary, for the suites that reach the stores only through this helper. */
export { advanceChange, backoffDelay, holderOf, LeaseLostError, POISON_CRASHES, retryChange, taskProcessDiedChange, type ClaimedJob } from "../../src/db/jobs/index.ts";

export type JobView = typeof sqlite.jobs.$inferSelect;
export type DeliveryView = typeof sqlite.deliveries.$inferSelect;

export interface StoreFixture {
  store: JobStore;
  /** Another store on connections of its own, as a second process has. */
  another: () => Promise<JobStore>;
  /** A save (three bytes unless given, of PLAYER unless given) without a job. */
  addSave: (at: number, encrypted?: Uint8Array, playerId?: string) => Promise<number>;
  /** A bot's `/msr` list naming these players, as PUT update_msr_sub stores it. */
  /** `mode`: the pairs' mode (`haruki` reads another service's copy, or marks a player the token may not read). */
  subscribe: (playerIds: string[], at: number, tokenName?: string, mode?: string) => Promise<void>;
  addReport: (at: number) => Promise<number>;
  jobOfSave: (saveId: number) => Promise<JobView>;
  job: (id: number) => Promise<JobView>;
  setJob: (id: number, fields: Partial<JobView>) => Promise<void>;
  /** A delivery of the save to `target` in `state`, as the notify stage leaves it. */
  addDelivery: (saveId: number, target: string, state: DeliveryView["state"], at: number) => Promise<void>;
  deliveriesOf: (saveId: number) => Promise<DeliveryView[]>;
  close: () => Promise<void>;
}

export interface StoreKind extends FixtureKind<StoreFixture> {
  /** Every running job is its holder's orphan at start-up (one process per SQLite file), not only expired ones. */
  reclaimsLiveLeases: boolean;
}

export const PLAYER = "1234567890123456789";
const saveValues = (at: number, encrypted: Uint8Array = new Uint8Array([1, 2, 3]), playerId = PLAYER) => ({ sha256: crypto.randomUUID(), playerId, source: "upload" as const, encrypted, size: encrypted.byteLength, receivedAt: at });
const deliveryValues = (saveId: number, target: string, state: DeliveryView["state"], at: number) => ({
  saveId,
  channel: "bark",
  target,
  state,
  attempts: state === "pending" ? 0 : 3,
  nextAttemptAt: at,
  lastError: state === "failed" ? "HTTP 500" : null,
  sentAt: state === "sent" ? at : null,
  createdAt: at,
});
const subscribedList = (playerIds: string[], mode = "latest") => ({ pairs: playerIds.map((uid) => ({ uid, mode })), peer: "127.0.0.1", bytes: 100 });
const reportValues = (at: number) => ({ receivedAt: at, shape: "har", entryCount: 1, candidateCount: 0, emptyBodies: 0, meta: {} });

export const sqliteStores: StoreKind = {
  name: "sqlite",
  reclaimsLiveLeases: true,
  open: async () => {
    const { db, another: openAnother, close } = sqliteHandles("job-store-");
    const { jobs, saves, reports, deliveries } = sqlite;
    return {
      store: sqliteJobStore(db),
      another: async () => sqliteJobStore(await openAnother()),
      addSave: async (at, encrypted, playerId) => db.insert(saves).values(saveValues(at, encrypted, playerId)).returning({ id: saves.id }).get().id,
      subscribe: async (playerIds, at, tokenName = "bot", mode) => putMsrSubscription(db, tokenName, "jp", subscribedList(playerIds, mode), at),
      addReport: async (at) => db.insert(reports).values(reportValues(at)).returning({ id: reports.id }).get().id,
      jobOfSave: async (saveId) => db.select().from(jobs).where(eq(jobs.saveId, saveId)).get()!,
      job: async (id) => db.select().from(jobs).where(eq(jobs.id, id)).get()!,
      setJob: async (id, fields) => void db.update(jobs).set(fields).where(eq(jobs.id, id)).run(),
      addDelivery: async (saveId, target, state, at) => void db.insert(deliveries).values(deliveryValues(saveId, target, state, at)).run(),
      deliveriesOf: async (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.target).all(),
      close,
    };
  },
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();

export const postgresStores: StoreKind = {
  name: "postgres",
  reclaimsLiveLeases: false,
  open: async () => {
    const { db, another: openAnother, open: openOther, close } = await pgHandles(await pgDatabase(), "jobs, deliveries, reports, saves, msr_subscriptions RESTART IDENTITY CASCADE", 4);
    const { jobs, saves, reports, deliveries } = pg;
    return {
      store: pgJobStore(db),
      another: async () => pgJobStore(await openAnother()),
      addSave: async (at, encrypted, playerId) => (await db.insert(saves).values(saveValues(at, encrypted, playerId)).returning({ id: saves.id }))[0]!.id,
      subscribe: async (playerIds, at, tokenName = "bot", mode) => pgPutMsrSubscription(db, tokenName, "jp", subscribedList(playerIds, mode), at),
      addReport: async (at) => (await db.insert(reports).values(reportValues(at)).returning({ id: reports.id }))[0]!.id,
      jobOfSave: async (saveId) => (await db.select().from(jobs).where(eq(jobs.saveId, saveId)))[0]!,
      job: async (id) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!,
      setJob: async (id, fields) => void (await db.update(jobs).set(fields).where(eq(jobs.id, id))),
      addDelivery: async (saveId, target, state, at) => void (await db.insert(deliveries).values(deliveryValues(saveId, target, state, at))),
      deliveriesOf: async (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(deliveries.target),
      close,
    };
  },
};
