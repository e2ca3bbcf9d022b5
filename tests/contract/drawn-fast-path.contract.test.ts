/**
 * PostgreSQL's one-statement record of a drawn stage (src/db/stage-writes/pg.ts recordDrawnAtOnce) is a shortcut of
 * the rule (the fenced change and ./rules.ts applyWrites in one transaction): the same stages through each, on two
 * databases, must leave every table the same, column for column (a new archive row, one re-pointed, a partial
 * refresh). The tables and their columns are read from the hub's schema, so a column added there is compared unasked.
 */
import { describe, expect, test } from "bun:test";
import { pgJobStore } from "../../src/db/jobs/pg.ts";
import { recordDrawnAtOnce, recordInTransaction } from "../../src/db/stage-writes/pg.ts";
import { acceptByRule } from "../../src/db/uploads/pg.ts";
import { sha256Hex } from "../../src/sha256.ts";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import { NO_ORIGIN } from "../../src/store/model/saves.ts";
import { advanceChange } from "../../src/store/model/jobs.ts";
import type { StageWrites } from "../../src/store/ports/stage-writes.ts";
import type { UploadLimits } from "../../src/store/ports/ingest.ts";
import { contents, fastAndRule } from "../helpers/hub-table-contents.ts";
import { POSTGRES_MISSING } from "../helpers/postgres.ts";
import { drawnWrites, fullDigest } from "../helpers/rows.ts";

const T0 = 1_800_000_000_000;
const PLAYER = "7488393821744390161";
const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 3, maxOpenBytes: 100_000, peerShare: 1, mayBeSave: () => true };
const digest = { ...fullDigest(), rare: [{ name: "rare", count: 2 }], more: 1 } as unknown as ReturnType<typeof fullDigest>;

/** Each stage as generate records it: the save it draws, and what it wrote (the same value on both paths). */
const STAGES: { saveId: number; writes: Extract<StageWrites, { kind: "drawn" }>; at: number; redraw?: true }[] = [
  { saveId: 1, writes: drawnWrites(1, `by-id/${PLAYER}/a`, PLAYER, digest, "drops-a"), at: T0 + 10 },
  { saveId: 2, writes: drawnWrites(2, `by-id/${PLAYER}/c`, PLAYER, fullDigest(true), "drops-c"), at: T0 + 20 },
  // Drawn again: the archive row is re-pointed (its token kept).
  { saveId: 1, writes: drawnWrites(1, `by-id/${PLAYER}/b`, PLAYER, fullDigest(), "drops-b"), at: T0 + 30, redraw: true },
];

describe.skipIf(POSTGRES_MISSING !== null)("a drawn stage's record on PostgreSQL: the one-statement path writes what the rule writes", () => {
  const dbs = fastAndRule(async (db) => {
    for (const [i, body] of [new Uint8Array(64).fill(1), new Uint8Array(48).fill(2)].entries()) {
      const chunk = { header: { uploadId: `u${i}`, chunkIndex: 0, totalChunks: 1, originalUrl: null }, body, playerId: PLAYER, origin: NO_ORIGIN, peer: "203.0.113.7", now: T0 + i };
      await acceptByRule(db, chunk, sha256Hex(body), LIMITS);
    }
  });

  test("the same stages leave every column of every table the same on both paths", async () => {
    const { fast, rule } = dbs;
    for (const { saveId, writes, at, redraw } of STAGES) {
      const [fastJob, ruleJob] = await Promise.all(
        [fast, rule].map(async (db) => {
          const jobs = pgJobStore(db);
          if (redraw) await jobs.requeueForRedraw(saveId, at);
          return (await jobs.claim(at, 60_000, false))!;
        }),
      );
      for (const job of [fastJob!, ruleJob!]) expect(job.subject).toEqual({ kind: "save", saveId } as never);
      // The fast path ran (it leaves the record to the transaction when the fence does not hold).
      expect(await recordDrawnAtOnce(fast, fastJob!, writes, advanceChange("done", at), at)).toBe(true);
      expect(await recordInTransaction(rule, ruleJob!, writes, advanceChange("done", at), at)).toEqual({ moved: "recorded", saved: undefined });
    }
    const [fastRows, ruleRows] = await Promise.all([contents(fast), contents(rule)]);
    // Not a comparison of empty tables, nor of defaults: two archive rows, one partial save.
    expect(ruleRows.archives!.length).toBe(2);
    expect(ruleRows.saves!.filter((row) => row.includes("drops-c")).length).toBe(1);
    expect(fastRows).toEqual(ruleRows);
  }, 60_000);
});
