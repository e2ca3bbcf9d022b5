/**
 * On a hub's PostgreSQL, a stage records under its job's lock and then writes the save's row; a save adopted by its
 * player id (the same bytes arriving again, now naming the player) must take the same two locks in the same order
 * (the job first), or the two deadlock and one of them fails: the upload with a 500, or the stage as an attempt.
 */
import { afterAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { eventually } from "../../scripts/lib/eventually.ts";
import { enqueueSave } from "../../src/db/jobs/index.ts";
import { pgFlow } from "../../src/db/dialect/pg.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import { pgStoreSaveOnce } from "../../src/db/saves/pg.ts";
import { saves } from "../../src/db/pg/schema.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";

const T0 = 1_700_000_000_000;
const PLAYER = "7412589630147258963";

describe.skipIf(POSTGRES_MISSING !== null)("adoption beside a stage recording, on PostgreSQL", () => {
  const opened: { end: () => Promise<void> }[] = [];
  afterAll(() => Promise.all(opened.map((client) => client.end())));

  test("the stage holding its job, then writing the save, and the adoption both commit: no deadlock", async () => {
    const url = await databaseForThisFile("migrated");
    const db = await openPostgres(url);
    const stage = postgres(url, { max: 2 });
    opened.push(db.$client, stage);
    const encrypted = new Uint8Array([1, 2, 3, 4]);
    const sha256 = crypto.randomUUID();
    const saveId = await db.transaction(async (tx) => {
      const [row] = await tx.insert(saves).values({ sha256, playerId: "unknown", source: "upload", encrypted, size: 4, receivedAt: T0 }).returning({ id: saves.id });
      await pgFlow(tx, enqueueSave(row!.id, T0, false));
      return row!.id;
    });

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const jobLocked = new Promise<void>((resolve) => (locked = resolve));
    // As the stage store records: the job's row under the lease fence first, then the save's own row.
    const recorded = stage.begin(async (tx) => {
      await tx`UPDATE jobs SET updated_at = ${T0 + 1} WHERE save_id = ${saveId}`;
      locked();
      await released;
      await tx`UPDATE saves SET outputs = NULL WHERE id = ${saveId}`;
    });
    await jobLocked;
    const adopted = db.transaction((tx) => pgStoreSaveOnce(tx, { encrypted, sha256, playerId: PLAYER, source: "upload", receivedAt: T0 + 2 }));
    await eventually(
      async () => (await stage`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n >= 1,
      10_000,
      "the adoption waiting on a lock",
    );
    release();

    const [stageResult, adoption] = await Promise.allSettled([recorded, adopted]);
    // The reasons, when rejected, say "deadlock detected".
    expect([stageResult.status, adoption.status, String((stageResult as PromiseRejectedResult).reason ?? (adoption as PromiseRejectedResult).reason ?? "")]).toEqual(["fulfilled", "fulfilled", ""]);
    expect(adoption.status === "fulfilled" && adoption.value.adopted).toBe(true);
    const [row] = await db.select({ playerId: saves.playerId }).from(saves);
    expect(row!.playerId).toBe(PLAYER);
  }, 30_000);
});
