/**
 * The two delivery stores side by side for the contract suite (tests/unit/delivery-store.contract.test.ts), each
 * beside the job store of its database (a delivery attempt is fenced by its job's lease), with a way to add saves
 * and consumer webhooks and to read the rows, the same for both dialects.
 */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type FixtureKind } from "./store-handles.ts";
import type { DataType } from "../../src/capture/data-types.ts";
import { asc, eq } from "drizzle-orm";
import { pgDeliveryStore } from "../../src/db/deliveries/pg.ts";
import { sqliteDeliveryStore } from "../../src/db/deliveries/sqlite.ts";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import * as pg from "../../src/db/pg/schema.ts";
import * as sqlite from "../../src/db/schema.ts";
import type { DeliveryStore } from "../../src/store/ports/deliveries.ts";
import type { JobStore } from "../../src/store/ports/jobs.ts";
import type { Delivery } from "../../src/store/model/deliveries.ts";

export type SaveView = typeof sqlite.saves.$inferSelect;
export type JobView = typeof sqlite.jobs.$inferSelect;

export interface DeliveryFixture {
  deliveries: DeliveryStore;
  jobs: JobStore;
  /** Another delivery store on connections of its own, as a second process has. */
  another: () => Promise<DeliveryStore>;
  addSave: (playerId: string, dropsFingerprint: string, at: number, dataType?: DataType) => Promise<number>;
  /** The save's deliveries, oldest first. */
  rows: (saveId: number) => Promise<Delivery[]>;
  save: (id: number) => Promise<SaveView>;
  job: (id: number) => Promise<JobView>;
  addDataWebhook: (url: string) => Promise<number>;
  removeDataWebhook: (id: number) => Promise<void>;
  close: () => Promise<void>;
}

export type DeliveryStoreKind = FixtureKind<DeliveryFixture>;

const saveValues = (playerId: string, dropsFingerprint: string, at: number, dataType: DataType = "mysekai") => ({
  dataType,
  sha256: crypto.randomUUID(),
  playerId,
  dropsFingerprint,
  source: "upload" as const,
  encrypted: new Uint8Array([1, 2, 3]),
  size: 3,
  receivedAt: at,
});

export const sqliteDeliveryStores: DeliveryStoreKind = {
  name: "sqlite",
  open: async () => {
    const { db, another: openAnother, close } = sqliteHandles("delivery-store-");
    const { dataWebhooks, deliveries, jobs, saves } = sqlite;
    return {
      deliveries: sqliteDeliveryStore(db),
      jobs: sqliteJobStore(db),
      another: async () => sqliteDeliveryStore(await openAnother()),
      addSave: async (playerId, fingerprint, at, dataType) => db.insert(saves).values(saveValues(playerId, fingerprint, at, dataType)).returning({ id: saves.id }).get().id,
      rows: async (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(asc(deliveries.id)).all(),
      save: async (id) => db.select().from(saves).where(eq(saves.id, id)).get()!,
      job: async (id) => db.select().from(jobs).where(eq(jobs.id, id)).get()!,
      addDataWebhook: async (url) => db.insert(dataWebhooks).values({ url, createdAt: 0 }).returning({ id: dataWebhooks.id }).get().id,
      removeDataWebhook: async (id) => void db.delete(dataWebhooks).where(eq(dataWebhooks.id, id)).run(),
      close,
    };
  },
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();

export const postgresDeliveryStores: DeliveryStoreKind = {
  name: "postgres",
  open: async () => {
    const { db, another: openAnother, open: openOther, close } = await pgHandles(await pgDatabase(), "jobs, deliveries, data_webhooks, saves RESTART IDENTITY CASCADE", 4);
    const { dataWebhooks, deliveries, jobs, saves } = pg;
    return {
      deliveries: pgDeliveryStore(db),
      jobs: pgJobStore(db),
      another: async () => pgDeliveryStore(await openAnother()),
      addSave: async (playerId, fingerprint, at, dataType) => (await db.insert(saves).values(saveValues(playerId, fingerprint, at, dataType)).returning({ id: saves.id }))[0]!.id,
      rows: (saveId) => db.select().from(deliveries).where(eq(deliveries.saveId, saveId)).orderBy(asc(deliveries.id)),
      save: async (id) => (await db.select().from(saves).where(eq(saves.id, id)))[0]!,
      job: async (id) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!,
      addDataWebhook: async (url) => (await db.insert(dataWebhooks).values({ url, createdAt: 0 }).returning({ id: dataWebhooks.id }))[0]!.id,
      removeDataWebhook: async (id) => void (await db.delete(dataWebhooks).where(eq(dataWebhooks.id, id))),
      close,
    };
  },
};
