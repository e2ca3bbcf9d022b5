/**
 * The stage store's contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL. A stage's
 * rows and its job's move commit together under the lease fence; generate's archive row is recorded once however
 * often it runs; a report's save is stored once, and an `unknown` one adopts the report's player id and is drawn
 * again; a holder that lost its lease records nothing.
 */
import { expect, test } from "bun:test";
import { advanceChange, LeaseLostError, type ClaimedJob } from "../../src/store/model/jobs.ts";
import type { StageWrites } from "../../src/store/ports/stage-writes.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { drawnWrites, fullDigest } from "../helpers/rows.ts";

const T0 = 1_700_000_000_000;
const LEASE = 60_000;
const PLAYER = "1234567890123456789";
const BYTES = new Uint8Array([1, 2, 3]);

describeEachStore("stage store", (s) => {
  const f = {
    addSave: (bytes: Uint8Array, playerId: string, at: number) => s.rows.save({ bytes, playerId, at }),
    /** A report with two candidate bodies, [9] then [8], and its evaluate job. */
    addReport: (at: number) => s.rows.report([new Uint8Array([9]), new Uint8Array([8])], at, { tool: "har" }),
    save: async (id: number) => (await s.stores.stageStore.saveToDraw(id))?.save,
    report: async (id: number) => (await s.stores.stageStore.reportToEvaluate(id))!.report,
    candidates: async (id: number) => (await s.stores.stageStore.reportToEvaluate(id))!.candidates.length,
    saveIds: () => s.stored.saveIds(),
    jobOfSave: (saveId: number) => s.jobRows.jobOfSave(saveId),
    jobOfReport: (reportId: number) => s.jobRows.jobOfReport(reportId),
    /** The archive rows (re-pointed, never doubled, the token kept: the subject here). */
    archives: () => s.stored.archives(),
  };

  const claim = async (now: number): Promise<ClaimedJob> => {
    const job = await s.stores.jobs.claim(now, LEASE, false);
    if (!job) throw new Error("nothing claimed");
    return job;
  };
  const reportSave = (reportId: number, playerId: string, encrypted = BYTES): StageWrites => ({
    kind: "report_save",
    reportId,
    save: { encrypted, playerId, source: "report", receivedAt: T0 },
    processedAt: T0,
  });

  test("generate's rows and its job's move commit together; run twice, the archive row is re-pointed, never doubled, its token kept", async () => {
    const id = await f.addSave(BYTES, PLAYER, T0);
    const first = await claim(T0);
    expect(await s.stores.stageStore.record(first, drawnWrites(id, `by-id/${PLAYER}/a`), advanceChange("notify", T0), T0, false)).toEqual({ moved: "recorded", saved: undefined });
    expect(await f.save(id)).toMatchObject({ outputs: { partial: false, sites: [] }, dropsFingerprint: `drops-of-${id}` });
    expect(await f.jobOfSave(id)).toMatchObject({ stage: "notify", state: "pending", leaseId: null });
    const [recorded] = await f.archives();

    await s.stores.jobs.requeueForRedraw(id, T0 + 1);
    const again = await claim(T0 + 1);
    await s.stores.stageStore.record(again, drawnWrites(id, `by-id/${PLAYER}/b`), advanceChange("notify", T0 + 1), T0 + 1, false);
    const archives = await f.archives();
    expect(archives).toHaveLength(1);
    expect(archives[0]).toMatchObject({ saveId: id, playerId: PLAYER, relPath: `by-id/${PLAYER}/b`, token: recorded!.token, createdAt: T0 });
  });

  test("a partial refresh is recorded as partial with its drawing (the data API's latest leaves it out)", async () => {
    const id = await f.addSave(new Uint8Array([9, 9]), PLAYER, T0);
    expect(await f.save(id)).toMatchObject({ partial: false, dataType: "mysekai" });
    await s.stores.stageStore.record(await claim(T0), drawnWrites(id, `by-id/${PLAYER}/partial`, PLAYER, fullDigest(true)), advanceChange("notify", T0), T0, false);
    expect(await f.save(id)).toMatchObject({ partial: true, outputs: { partial: true } });
  });

  test("rows that cannot be written take the job's change back with them: the job stays held, nothing recorded", async () => {
    const other = await f.addSave(new Uint8Array([5]), PLAYER, T0);
    await s.stores.stageStore.record(await claim(T0), drawnWrites(other, `by-id/${PLAYER}/taken`), advanceChange("done", T0), T0, false);
    const id = await f.addSave(BYTES, PLAYER, T0);
    const job = await claim(T0);
    // The archive path is another save's: the archives row breaks its unique index after the save's outputs were written.
    const error = await s.stores.stageStore.record(job, drawnWrites(id, `by-id/${PLAYER}/taken`), advanceChange("notify", T0), T0, false).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(LeaseLostError);
    expect(await f.save(id)).toMatchObject({ outputs: null, dropsFingerprint: null });
    expect(await f.jobOfSave(id)).toMatchObject({ stage: "generate", state: "running", leaseId: job.leaseId });
  });

  test("a holder whose lease was taken over records nothing: neither its rows nor its job's move", async () => {
    const id = await f.addSave(BYTES, PLAYER, T0);
    const stale = await claim(T0);
    const taker = await claim(T0 + 2 * LEASE);
    expect(taker.id).toBe(stale.id);
    const later = T0 + 2 * LEASE + 1;
    await expect(s.stores.stageStore.record(stale, drawnWrites(id, `by-id/${PLAYER}/a`), advanceChange("notify", later), later, false)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await f.archives()).toEqual([]);
    expect(await f.save(id)).toMatchObject({ outputs: null, dropsFingerprint: null });
    expect(await f.jobOfSave(id)).toMatchObject({ stage: "generate", state: "running", leaseId: taker.leaseId });

    const reportId = await f.addReport(T0);
    const staleReport = await claim(later);
    await claim(later + 2 * LEASE);
    const after = later + 2 * LEASE + 1;
    await expect(s.stores.stageStore.record(staleReport, reportSave(reportId, PLAYER, new Uint8Array([7])), advanceChange("done", after), after, false)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await f.saveIds()).toEqual([id]);
    expect(await f.report(reportId)).toMatchObject({ outcome: null, saveId: null, processedAt: null });
    expect(await f.candidates(reportId)).toBe(2);
  });

  test("a report's new save is stored once with its own generate job; the same bytes again are a duplicate", async () => {
    const first = await f.addReport(T0);
    const recorded = await s.stores.stageStore.record(await claim(T0), reportSave(first, PLAYER), advanceChange("done", T0), T0, false);
    const [saveId] = await f.saveIds();
    expect(recorded).toEqual({ moved: "recorded", saved: { saveId: saveId!, created: true } });
    expect(await f.save(saveId!)).toMatchObject({ playerId: PLAYER, source: "report", receivedAt: T0 });
    expect(await f.jobOfSave(saveId!)).toMatchObject({ stage: "generate", state: "pending" });
    expect(await f.report(first)).toMatchObject({ outcome: "save", saveId, processedAt: T0 });
    expect(await f.jobOfReport(first)).toMatchObject({ stage: "done", state: "done" });
    expect(await f.candidates(first)).toBe(0);

    const second = await f.addReport(T0);
    const report = await s.stores.jobs.claim(T0, LEASE, false);
    // The save's own job is due too; the report's comes after it.
    const job = report?.subject.kind === "report" ? report : await claim(T0);
    expect(job.subject).toEqual({ kind: "report", reportId: second });
    expect(await s.stores.stageStore.record(job, reportSave(second, PLAYER), advanceChange("done", T0), T0, false)).toMatchObject({ saved: { saveId, created: false } });
    expect(await f.saveIds()).toEqual([saveId!]);
    expect(await f.report(second)).toMatchObject({ outcome: "duplicate", saveId });
  });

  test("adoption moves a save to its player: an unknown save at rest takes the report's player id and is drawn again", async () => {
    const id = await f.addSave(BYTES, "unknown", T0);
    await s.stores.stageStore.record(await claim(T0), drawnWrites(id, "by-id/unknown/a", "unknown"), advanceChange("done", T0), T0, false);
    const reportId = await f.addReport(T0);
    expect(await s.stores.stageStore.record(await claim(T0 + 1), reportSave(reportId, PLAYER), advanceChange("done", T0 + 1), T0 + 1, false)).toMatchObject({ saved: { saveId: id, created: false } });
    expect(await f.save(id)).toMatchObject({ playerId: PLAYER });
    expect(await f.jobOfSave(id)).toMatchObject({ stage: "generate", state: "pending", notify: true, rerun: false });
    expect(await f.report(reportId)).toMatchObject({ outcome: "duplicate", saveId: id });

    // Adoption requeues at the real clock.
    const now = Date.now();
    await s.stores.stageStore.record(await claim(now), drawnWrites(id, `by-id/${PLAYER}/a`), advanceChange("notify", now), now, false);
    expect(await f.archives()).toMatchObject([{ saveId: id, playerId: PLAYER, relPath: `by-id/${PLAYER}/a` }]);
  });

  test("a save adopted while its stage runs: that stage's rows are recorded and its job goes back to generate", async () => {
    const id = await f.addSave(BYTES, "unknown", T0);
    const generate = await claim(T0);
    const reportId = await f.addReport(T0);
    await s.stores.stageStore.record(await claim(T0), reportSave(reportId, PLAYER), advanceChange("done", T0), T0, false);
    expect(await f.jobOfSave(id)).toMatchObject({ state: "running", rerun: true });

    expect(await s.stores.stageStore.record(generate, drawnWrites(id, "by-id/unknown/a", "unknown"), advanceChange("notify", T0 + 1), T0 + 1, false)).toEqual({ moved: "redraw", saved: undefined });
    expect(await f.archives()).toMatchObject([{ saveId: id, relPath: "by-id/unknown/a" }]);
    expect(await f.jobOfSave(id)).toMatchObject({ stage: "generate", state: "pending", notify: true, rerun: false, leaseId: null });
  });

  test("a report that yields no save: its outcome recorded, its candidates dropped, or kept for inspection", async () => {
    const dropped = await f.addReport(T0);
    await s.stores.stageStore.record(await claim(T0), { kind: "report_closed", reportId: dropped, outcome: "no_save", dropCandidates: true, processedAt: T0 }, advanceChange("done", T0), T0, false);
    expect(await f.report(dropped)).toMatchObject({ outcome: "no_save", saveId: null, processedAt: T0 });
    expect(await f.candidates(dropped)).toBe(0);

    const kept = await f.addReport(T0);
    await s.stores.stageStore.record(await claim(T0), { kind: "report_closed", reportId: kept, outcome: "no_save", dropCandidates: false, processedAt: T0 }, { state: "failed", lastError: "bad base64" }, T0, true);
    expect(await f.report(kept)).toMatchObject({ outcome: "no_save", processedAt: T0 });
    expect(await f.candidates(kept)).toBe(2);
    expect(await f.jobOfReport(kept)).toMatchObject({ state: "failed", lastError: "bad base64" });
  });

  test("generate reads its save whole and the archive folder it was last drawn to; a missing save is null", async () => {
    const id = await f.addSave(BYTES, PLAYER, T0);
    const before = await s.stores.stageStore.saveToDraw(id);
    expect(before).toMatchObject({ save: { id, playerId: PLAYER, receivedAt: T0, source: "upload", size: 3 }, archivePath: null });
    expect([...before!.save.encrypted!]).toEqual([...BYTES]);
    await s.stores.stageStore.record(await claim(T0), drawnWrites(id, `by-id/${PLAYER}/a`), advanceChange("notify", T0), T0, false);
    expect(await s.stores.stageStore.saveToDraw(id)).toMatchObject({ save: { id, dropsFingerprint: `drops-of-${id}`, outputs: { partial: false } }, archivePath: `by-id/${PLAYER}/a` });
    expect(await s.stores.stageStore.saveToDraw(id + 1000)).toBeNull();
  });

  test("the runner's log reads a save's player id; none for a save that is not there", async () => {
    const id = await f.addSave(BYTES, PLAYER, T0);
    expect(await s.stores.stageStore.playerOf(id)).toBe(PLAYER);
    expect(await s.stores.stageStore.playerOf(id + 1000)).toBeUndefined();
  });

  test("of saves claiming one bucket folder at once exactly one holds it, and keeps it; a claim again answers the same", async () => {
    const folder = `by-id/${PLAYER}/20231114_221320`;
    const ids = await Promise.all([1, 2, 3, 4].map((n) => f.addSave(new Uint8Array([n]), PLAYER, T0)));
    const held = await Promise.all(ids.map((id) => s.stores.stageStore.claimArchiveFolder(id, folder)));
    expect(held.filter(Boolean)).toHaveLength(1);
    const holder = ids[held.indexOf(true)]!;
    for (const id of ids) expect(await s.stores.stageStore.claimArchiveFolder(id, folder)).toBe(id === holder);
    expect(await s.stores.stageStore.claimArchiveFolder(ids[0]!, `${folder}_${ids[0]}`)).toBe(true);
  });

  test("evaluate reads its report and the candidate bodies in their order; a missing report is null", async () => {
    const reportId = await f.addReport(T0);
    // Their seq no longer their order of insertion ([8] now first), so that a read ignoring seq is seen.
    await s.stored.reverseCandidates(reportId, 2);
    const read = await s.stores.stageStore.reportToEvaluate(reportId);
    expect(read?.report).toMatchObject({ id: reportId, receivedAt: T0, entryCount: 2, emptyBodies: 0, meta: { tool: "har" }, outcome: null });
    expect(read?.candidates.map((candidate) => [candidate.seq, [...candidate.body]])).toEqual([[0, [8]], [1, [9]]]);
    expect(await s.stores.stageStore.reportToEvaluate(reportId + 1000)).toBeNull();
  });
});
