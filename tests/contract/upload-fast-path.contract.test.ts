/**
 * PostgreSQL's one-statement path for a single-chunk upload (src/db/uploads/pg.ts storeNewSingleChunkSave) is a
 * shortcut of the chunk's rule (accept-chunk.ts, the path every other chunk takes): the same chunks through each, on
 * two databases, must leave every table the same, column for column. The tables and their columns are read from
 * the hub's schema, so a column added to it is compared without touching this test.
 */
import { describe, expect, test } from "bun:test";
import { pgPutMsrSubscription } from "../../src/db/owner/pg-msr-subscriptions.ts";
import { acceptByRule, storeNewSingleChunkSave } from "../../src/db/uploads/pg.ts";
import { saveOrigin } from "../../src/ingest/save-origin.ts";
import { sha256Hex } from "../../src/sha256.ts";
import type { ChunkOutcome, IncomingChunk, UploadLimits } from "../../src/store/ports/ingest.ts";
import { MAX_UPLOAD_BYTES } from "../../src/contract.ts";
import { contents, fastAndRule, TABLES } from "../helpers/hub-table-contents.ts";
import { POSTGRES_MISSING } from "../helpers/postgres.ts";

const T0 = 1_800_000_000_000;
const SUBSCRIBED = "7488393821744390161";
const OTHER = "1234567890123456789";
const LIMITS: UploadLimits = { maxUploadBytes: MAX_UPLOAD_BYTES, ttlMs: 60_000, maxOpen: 3, maxOpenBytes: 100_000, peerShare: 1, mayBeSave: (body) => body[0] !== 0 };
const CN_HOST = "https://mkcn-prod-public-60001-1.dailygn.com";

const chunk = (uploadId: string, body: Uint8Array, player: string | null, originalUrl: string | null, now: number): IncomingChunk => ({
  header: { uploadId, chunkIndex: 0, totalChunks: 1, originalUrl },
  body,
  playerId: player,
  origin: saveOrigin(originalUrl),
  peer: "203.0.113.7",
  now,
});

/** Single-chunk saves of every kind the fast path takes: a subscribed player's, another's, one without a player, junk, another data type. */
const CHUNKS = [
  chunk("a", new Uint8Array(64).fill(1), SUBSCRIBED, `${CN_HOST}/api/user/${SUBSCRIBED}/mysekai`, T0),
  chunk("b", new Uint8Array(48).fill(2), OTHER, `${CN_HOST}/api/user/${OTHER}/mysekai/birthday-party/41/delivery`, T0 + 1),
  chunk("c", new Uint8Array(32).fill(3), null, null, T0 + 2),
  chunk("d", new Uint8Array(33).fill(0), "unknown", "https://mysekai.example/api/user/unknown/mysekai", T0 + 3),
];

describe.skipIf(POSTGRES_MISSING !== null)("a single-chunk upload on PostgreSQL: the one-statement path writes what the rule writes", () => {
  const dbs = fastAndRule((db) => pgPutMsrSubscription(db, "bot", "cn", { pairs: [{ uid: SUBSCRIBED, mode: "suite" }], peer: "198.51.100.1", bytes: 40 }, T0 - 1_000));

  test("the same chunks leave every column of every table the same on both paths", async () => {
    const { fast, rule } = dbs;
    const outcomes: { fast: ChunkOutcome | null; rule: ChunkOutcome }[] = [];
    for (const c of CHUNKS) {
      const sha256 = sha256Hex(c.body);
      outcomes.push({ fast: await storeNewSingleChunkSave(fast, c, sha256, LIMITS), rule: await acceptByRule(rule, c, sha256, LIMITS) });
    }
    for (const outcome of outcomes) expect(outcome.fast).toEqual(outcome.rule);
    const [fastRows, ruleRows] = await Promise.all([contents(fast), contents(rule)]);
    // The chunks wrote saves, jobs and tasks: the comparison is not of empty tables.
    for (const table of ["saves", "jobs", "upload_tasks"]) expect(ruleRows[table]!.length).toBe(CHUNKS.length);
    const column = (table: string, name: string) => ruleRows[table]!.map((row) => row[TABLES.find((t) => t.name === table)!.columns.indexOf(name)]);
    // …nor of defaults: the subscribed player's job goes first, the junk runs last, the regions and types differ.
    expect(column("jobs", "subscribed").sort()).toEqual(["false", "false", "false", "true"]);
    expect(column("jobs", "implausible").sort()).toEqual(["false", "false", "false", "true"]);
    expect(new Set(column("saves", "data_type")).size).toBe(2);
    expect(fastRows).toEqual(ruleRows);
  }, 60_000);
});
