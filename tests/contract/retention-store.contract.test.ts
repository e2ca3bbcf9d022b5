/**
 * The retention store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL.
 * What the rule clears and what it keeps, junk saves going whole, done save jobs going, bounded batches per sweep;
 * on PostgreSQL, processes racing to sweep: exactly one sweeps, the others skip.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { ArchiveStore } from "../../src/archive/store.ts";
import type { JobState } from "../../src/store/model/jobs.ts";
import type { RetentionStore } from "../../src/store/ports/retention.ts";
import { describeEachStore, type StoreUnderTest } from "../helpers/contract-stores.ts";
import { PLAYER } from "../helpers/rows.ts";
import { eventually } from "../helpers/server.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_800_000_000_000;
const OLD = NOW - 40 * DAY;
const RECENT = NOW - DAY;
const CUTOFF = NOW - 30 * DAY;

/** Sweeps until no step says more; the rounds' counts added up. */
async function sweepAll(f: { store: RetentionStore }, maxBatches?: number) {
  const total = { candidates: 0, reports: 0, jobs: 0, junkSaves: 0, deliveries: 0, clearedSaves: 0, rounds: 0 };
  for (let more = true; more; ) {
    const round = await f.store.sweep(CUTOFF, maxBatches);
    if (!round) throw new Error("the sweep was skipped");
    for (const key of Object.keys(total) as (keyof typeof total)[]) if (key !== "rounds") total[key] += round.counts[key];
    total.rounds++;
    more = round.more;
  }
  return total;
}

/** An archive whose reads wait until `release`: a sweep held between choosing its saves and clearing them. */
function heldReads(archive: ArchiveStore) {
  let reached = false;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const gated: ArchiveStore = {
    ...archive,
    read: async (relPath, name) => {
      reached = true;
      await held;
      return archive.read(relPath, name);
    },
  };
  return { archive: gated, entered: () => eventually(() => reached), release };
}

/** What the archive holds of a save: save.bin with its bytes, other bytes, nothing, or no archive row at all. */
type ArchiveKind = "intact" | "damaged" | "missing" | null;

interface SaveSpec {
  at: number;
  jobState: JobState;
  archive?: ArchiveKind;
  deliveryStates?: ("pending" | "sent" | "skipped" | "failed")[];
  implausible?: boolean;
}

/**
 * Saves and reports in any state a sweep may meet, and what is left of them. Saves and reports arrive through the
 * ingest ports; their job's state, archive row and deliveries are written by SQL (the sweep's subject is which rows
 * and columns stay, and no port leaves a job at rest in each state without running the stages).
 */
function retentionRows(s: StoreUnderTest) {
  return {
    get store() {
      return s.stores.retention;
    },
    another: async (archive?: ArchiveStore) => (await s.another(archive)).retention,
    get archive() {
      return s.archive;
    },
    addReport: async (receivedAt: number, processedAt: number | null, jobState: JobState | null, candidates: number) => {
      const id = await s.rows.report(Array.from({ length: candidates }, () => new Uint8Array(randomBytes(2_000))), receivedAt);
      await s.stored.reportProcessedAt(id, processedAt);
      if (jobState) await s.jobRows.set((await s.jobRows.jobOfReport(id)).id, { state: jobState, updatedAt: processedAt ?? receivedAt });
      else await s.stored.dropJobOfReport(id);
      return id;
    },
    report: (id: number) => s.stored.report(id),
    addSave: async ({ at, jobState, archive: kind = null, deliveryStates = [], implausible = false }: SaveSpec) => {
      const encrypted = new Uint8Array(randomBytes(4_000));
      const id = await s.rows.save({ at, bytes: encrypted, implausible });
      await s.stored.setOutputs(id, {});
      const job = await s.jobRows.jobOfSave(id);
      await s.jobRows.set(job.id, { stage: jobState === "done" ? "done" : "notify", state: jobState, implausible, updatedAt: at });
      if (kind) {
        const relPath = `by-id/${PLAYER}/save_${id}`;
        await s.stored.addArchive(id, PLAYER, relPath, `token${id}`, ["save.bin", "save.json.gz", "site_5.png"], at);
        mkdirSync(join(s.archiveRoot, relPath), { recursive: true });
        if (kind !== "missing") writeFileSync(join(s.archiveRoot, relPath, "save.bin"), kind === "intact" ? encrypted : randomBytes(4_000));
        writeFileSync(join(s.archiveRoot, relPath, "save.json.gz"), randomBytes(100));
      }
      for (const [n, state] of deliveryStates.entries()) {
        await s.sql.insert("deliveries", { saveId: id, channel: "webhook", target: `t${n}`, state, nextAttemptAt: at, createdAt: at });
      }
      return id;
    },
    /** Many done save jobs at `at` (saves without archives) in two statements: batch tests. */
    addDoneSaves: (n: number, at: number) => s.stored.addDoneSaves(n, PLAYER, at),
    /** The save's job back to work, as an adoption or a reprocess sends it. */
    requeue: (saveId: number) => s.stores.jobs.requeueForRedraw(saveId, Date.now()),
    save: async (id: number) => {
      const { archive, ...save } = await s.stored.save(id);
      return {
        ...save,
        files: archive?.files ?? null,
        jsonInArchive: archive ? (await s.archive.read(archive.relPath, "save.json.gz")) !== null : false,
      };
    },
  };
}

describeEachStore("retention store", (s) => {
  const f = retentionRows(s);

  test("clears what expired and keeps the rest: reports, done save jobs, deliveries, and archived saves' copies", async () => {
    const reports = {
      doneOld: await f.addReport(OLD, OLD, "done", 3),
      failedOld: await f.addReport(OLD, OLD, "failed", 2),
      doneRecent: await f.addReport(RECENT, RECENT, "done", 2),
      waitingOld: await f.addReport(OLD, null, "waiting_for_key", 2),
      retriedOld: await f.addReport(OLD, OLD, "pending", 2),
    };
    const saves = {
      archivedOld: await f.addSave({ at: OLD, jobState: "done", archive: "intact", deliveryStates: ["sent", "skipped", "failed"] }),
      archiveMissing: await f.addSave({ at: OLD, jobState: "done", archive: "missing", deliveryStates: ["sent"] }),
      archiveDamaged: await f.addSave({ at: OLD, jobState: "done", archive: "damaged" }),
      failedOld: await f.addSave({ at: OLD, jobState: "failed", deliveryStates: ["failed"] }),
      notifyingOld: await f.addSave({ at: OLD, jobState: "pending_retry", archive: "intact", deliveryStates: ["sent", "pending"] }),
      // The player's latest save: the rule knows no exception for it (its row and sha256 stay, as every save's).
      archivedRecent: await f.addSave({ at: RECENT, jobState: "done", archive: "intact", deliveryStates: ["sent"] }),
    };
    const before = await f.save(saves.archivedOld);

    const total = await sweepAll(f);
    expect(total).toMatchObject({ candidates: 5, reports: 2, jobs: 3, junkSaves: 0, deliveries: 4, clearedSaves: 1 });

    expect(await f.report(reports.doneOld)).toEqual({ exists: false, candidates: 0 });
    expect(await f.report(reports.failedOld)).toEqual({ exists: false, candidates: 0 });
    expect(await f.report(reports.doneRecent)).toEqual({ exists: true, candidates: 2 });
    expect(await f.report(reports.waitingOld)).toEqual({ exists: true, candidates: 2 });
    expect(await f.report(reports.retriedOld)).toEqual({ exists: true, candidates: 2 });

    expect(await f.save(saves.archivedOld)).toEqual({
      exists: true, sha256: before.sha256, hasBody: false, hasOutputs: false, hasJob: false, deliveries: 0,
      files: ["save.bin", "site_5.png"], jsonInArchive: false,
    });
    // Without an intact save.bin the database's copy is the only one: it stays, the done job and deliveries go.
    for (const id of [saves.archiveMissing, saves.archiveDamaged]) {
      expect(await f.save(id)).toMatchObject({ hasBody: true, hasOutputs: true, hasJob: false, deliveries: 0, jsonInArchive: true });
    }
    expect(await f.save(saves.failedOld)).toMatchObject({ exists: true, hasBody: true, hasJob: true, deliveries: 1 });
    expect(await f.save(saves.notifyingOld)).toMatchObject({ hasBody: true, hasOutputs: true, hasJob: true, deliveries: 2, jsonInArchive: true });
    expect(await f.save(saves.archivedRecent)).toMatchObject({ hasBody: true, hasOutputs: true, hasJob: true, deliveries: 1, jsonInArchive: true });
    expect((await f.save(saves.archivedRecent)).files).toContain("save.json.gz");

    // A second sweep finds nothing more to do.
    expect(await sweepAll(f)).toMatchObject({ candidates: 0, reports: 0, jobs: 0, deliveries: 0, clearedSaves: 0 });
  });

  test("a failed save that cannot be a save under the keys goes whole with its job; a plausible failed one stays", async () => {
    const junkOld = await f.addSave({ at: OLD, jobState: "failed", implausible: true, deliveryStates: ["failed"] });
    const junkRecent = await f.addSave({ at: RECENT, jobState: "failed", implausible: true });
    const failedOld = await f.addSave({ at: OLD, jobState: "failed" });
    const junkWaiting = await f.addSave({ at: OLD, jobState: "pending_retry", implausible: true });

    expect((await sweepAll(f)).junkSaves).toBe(1);
    expect(await f.save(junkOld)).toMatchObject({ exists: false, hasJob: false, deliveries: 0 });
    for (const id of [junkRecent, failedOld, junkWaiting]) expect(await f.save(id)).toMatchObject({ exists: true, hasBody: true, hasJob: true });
  });

  test("a pending delivery stays, even of a finished save; its sent ones go", async () => {
    const id = await f.addSave({ at: OLD, jobState: "done", deliveryStates: ["pending", "sent"] });
    expect((await sweepAll(f)).deliveries).toBe(1);
    expect(await f.save(id)).toMatchObject({ hasJob: false, deliveries: 1 });
  });

  test("each sweep does a bounded amount: at most maxBatches batches per step, and says when more is left", async () => {
    await f.addDoneSaves(520, OLD);
    const archived = [];
    for (let n = 0; n < 40; n++) archived.push(await f.addSave({ at: OLD, jobState: "done", archive: "intact" }));

    const first = await f.store.sweep(CUTOFF, 1);
    expect(first).toMatchObject({ counts: { jobs: 500, clearedSaves: 32 }, more: true });
    const rest = await sweepAll(f, 1);
    expect(rest.jobs).toBe(60);
    expect(rest.clearedSaves).toBe(8);
    for (const id of archived) expect((await f.save(id)).hasBody).toBe(false);
  });

  test("a save sent back to work while the sweep checks its archive keeps its copy", async () => {
    const id = await f.addSave({ at: OLD, jobState: "done", archive: "intact" });
    const gate = heldReads(f.archive);
    const sweep = (await f.another(gate.archive)).sweep(CUTOFF);
    await gate.entered();
    await f.requeue(id);
    gate.release();
    expect((await sweep)?.counts.clearedSaves).toBe(0);
    expect(await f.save(id)).toMatchObject({ hasBody: true, hasOutputs: true });
  });

  if (s.hub) {
    test("processes racing to sweep: exactly one sweeps, the others skip; the lock is free once it is done", async () => {
      for (let n = 0; n < 3; n++) await f.addSave({ at: OLD, jobState: "done", archive: "intact" });
      // The first sweeper's archive holds its first read until the others have tried.
      const gate = heldReads(f.archive);
      const first = (await f.another(gate.archive)).sweep(CUTOFF);
      await gate.entered();
      const others = await Promise.all([f.store.sweep(CUTOFF), (await f.another()).sweep(CUTOFF)]);
      expect(others).toEqual([null, null]);
      gate.release();
      expect((await first)?.counts.clearedSaves).toBe(3);
      expect(await f.store.sweep(CUTOFF)).toMatchObject({ counts: { clearedSaves: 0 }, more: false });
    });
  }
});
