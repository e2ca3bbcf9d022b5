/**
 * The stores behind this issue's player features, the same tests on SQLite and a hub's PostgreSQL: the nudge store
 * (opt-ins, a claim won once across two processes, what counts as a full save, the region), the capture health
 * reads and the spawn archives' read.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteNudgeStore } from "../../src/db/owner/sqlite.ts";
import { openDatabase } from "../../src/db/open.ts";
import { pgNudgeStore } from "../../src/db/owner/pg.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import type { NudgeStore } from "../../src/store/ports/nudges.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import type { CaptureHealthReads, SpawnReads } from "../../src/store/ports/pages.ts";
import { sqliteCaptureHealthReads, sqliteSpawnReads } from "../../src/db/read-models/sqlite.ts";
import { pgCaptureHealthReads, pgSpawnReads } from "../../src/db/read-models/pg.ts";

const PLAYER = "7485938820123456789";
const T0 = 1_700_000_000_000;

interface Stores {
  nudges: NudgeStore;
  health: CaptureHealthReads;
  spawns: SpawnReads;
  /** Another process's nudge store. */
  another: () => Promise<NudgeStore>;
  /** Runs SQL written with $1, $2 … placeholders. */
  exec: (sql: string, ...params: (string | number | null)[]) => Promise<void>;
  close: () => Promise<void>;
}

interface Kind {
  name: string;
  prepare: () => Promise<unknown>;
  open: () => Promise<Stores>;
}

const sqlite: Kind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "player-reads-"));
    const db = openDatabase(join(dir, "ingest.sqlite"));
    const others = [db];
    return {
      nudges: sqliteNudgeStore(db),
      health: sqliteCaptureHealthReads(db),
      spawns: sqliteSpawnReads(db),
      another: async () => {
        const other = openDatabase(join(dir, "ingest.sqlite"));
        others.push(other);
        return sqliteNudgeStore(other);
      },
      exec: async (sql, ...params) => void db.$client.query(sql.replace(/\$(\d+)/g, "?$1")).run(...params),
      close: async () => {
        for (const handle of others) handle.$client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

let pgUrl: Promise<string> | undefined;
const postgres: Kind = {
  name: "postgres",
  prepare: () => (pgUrl ??= databaseForThisFile("migrated")),
  open: async () => {
    const url = await pgUrl!;
    const db = await openPostgres(url, { maxConnections: 4 });
    await db.$client.unsafe("TRUNCATE nudges, nudge_players, saves, reports RESTART IDENTITY CASCADE");
    const others = [db];
    return {
      nudges: pgNudgeStore(db),
      health: pgCaptureHealthReads(db),
      spawns: pgSpawnReads(db),
      another: async () => {
        const other = await openPostgres(url, { maxConnections: 4 });
        others.push(other);
        return pgNudgeStore(other);
      },
      exec: async (sql, ...params) => void (await db.$client.unsafe(sql, params)),
      close: async () => void (await Promise.all(others.map((handle) => handle.$client.end()))),
    };
  },
};

for (const kind of [sqlite, postgres]) {
  describe.skipIf(kind.name === "postgres" && POSTGRES_MISSING !== null)(`player reads on ${kind.name}`, () => {
    let s: Stores;
    beforeAll(() => kind.prepare(), 60_000);
    beforeEach(async () => {
      s = await kind.open();
    });
    afterEach(() => s.close());

    let nextId = 0;
    async function save(receivedAt: number, opts: { region?: string | null; digest?: object | null; archived?: boolean; job?: { state: string; error?: string }; dataType?: string } = {}): Promise<number> {
      const id = ++nextId + 1000;
      await s.exec("INSERT INTO saves (id, sha256, player_id, source, size, received_at, region, data_type) VALUES ($1, $2, $3, 'upload', 1, $4, $5, $6)", id, `sha-${id}`, PLAYER, receivedAt, opts.region ?? null, opts.dataType ?? "mysekai");
      if (opts.archived !== false) {
        await s.exec("INSERT INTO archives (save_id, player_id, rel_path, token, files, digest, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)", id, PLAYER, `by-id/${PLAYER}/${id}`, `t${id}`, "[]", opts.digest === undefined ? null : JSON.stringify(opts.digest), receivedAt);
      }
      if (opts.job) await s.exec("INSERT INTO jobs (save_id, stage, state, run_at, created_at, updated_at, last_error) VALUES ($1, 'generate', $2, 0, $3, $3, $4)", id, opts.job.state, receivedAt, opts.job.error ?? null);
      return id;
    }
    const digest = (partial: boolean) => ({ partial, rare: partial ? [] : [{ name: "Diamond", tier: "super", total: 1 }], newSongs: [], more: 0, sites: [] });

    test("nudges: opt-in and out; a (player, refresh) claimed once, whichever process asks first", async () => {
      await s.nudges.setNudge(PLAYER, 3, T0);
      await s.nudges.setNudge(PLAYER, 5, T0 + 1);
      expect(await s.nudges.nudgePlayers()).toEqual([{ playerId: PLAYER, hours: 5, since: T0 }]);
      const other = await s.another();
      expect(await other.claim(PLAYER, T0, "missed", T0)).toBe(true);
      expect(await s.nudges.claim(PLAYER, T0, "partial", T0)).toBe(false);
      expect(await s.nudges.claim(PLAYER, T0 + 1, "missed", T0)).toBe(true);
      await s.nudges.setNudge(PLAYER, null);
      expect(await s.nudges.nudgePlayer(PLAYER)).toBeNull();
    });

    test("nudges: a full save or a party refresh counts, a partial or failed one or a party delivery kept as a record does not, one still being drawn does; the newest save's region", async () => {
      expect(await s.nudges.latestRegion(PLAYER)).toBeNull();
      await save(T0, { region: "en", digest: digest(false) });
      await save(T0 + 10, { region: "jp", digest: digest(true) });
      await save(T0 + 20, { region: null, digest: digest(true) });
      expect(await s.nudges.latestRegion(PLAYER)).toBe("jp");
      expect(await s.nudges.fullSaveSince(PLAYER, T0)).toBe(true);
      expect(await s.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
      // A party delivery that refreshed nothing (digest partial), or one still being drawn, leaves the nudge due.
      await save(T0 + 21, { region: "jp", digest: digest(true), dataType: "mysekai_birthday_party", job: { state: "done" } });
      await save(T0 + 22, { region: "jp", archived: false, dataType: "mysekai_birthday_party", job: { state: "running" } });
      expect(await s.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
      await save(T0 + 25, { archived: false, job: { state: "failed", error: "does not decrypt under any configured key (bad padding)" } });
      expect(await s.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(false);
      await save(T0 + 30, { archived: false, job: { state: "running" } });
      expect(await s.nudges.fullSaveSince(PLAYER, T0 + 1)).toBe(true);
      // A party refresh is the refresh: it counts.
      await save(T0 + 40, { region: "jp", digest: digest(false), dataType: "mysekai_birthday_party", job: { state: "done" } });
      expect(await s.nudges.fullSaveSince(PLAYER, T0 + 31)).toBe(true);
    });

    test("capture health: the newest save that did not fail, and the newest failure with its reason", async () => {
      expect(await s.health.captureHealth(PLAYER)).toEqual({ latest: null, failure: null });
      await save(T0, { region: "jp", digest: digest(false), job: { state: "done" } });
      await save(T0 + 10, { region: "jp", archived: false, job: { state: "failed", error: "does not decrypt under any configured key (bad padding)" } });
      const health = await s.health.captureHealth(PLAYER);
      expect(health).toEqual({ latest: { receivedAt: T0, source: "upload", region: "jp", partial: false, unknown: [], report: null }, failure: { receivedAt: T0 + 10, reason: "does not decrypt under any configured key (bad padding)", region: "jp" } });
      // A party delivery kept as a record is no capture of the save: the latest stays.
      const record = await save(T0 + 20, { region: "jp", digest: digest(true), dataType: "mysekai_birthday_party", job: { state: "done" } });
      await s.exec("UPDATE saves SET partial = TRUE WHERE id = $1", record);
      expect((await s.health.captureHealth(PLAYER)).latest?.receivedAt).toBe(T0);
    });

    test("spawn archives: since a time, newest first, with their digests", async () => {
      await save(T0, { digest: digest(false) });
      const b = await save(T0 + 10, { digest: digest(true) });
      const c = await save(T0 + 20);
      const rows = await s.spawns.archivesSince(PLAYER, T0 + 5);
      expect(rows.map((r) => [r.saveId, r.receivedAt, r.relPath, r.digest?.partial ?? null])).toEqual([
        [c, T0 + 20, `by-id/${PLAYER}/${c}`, null],
        [b, T0 + 10, `by-id/${PLAYER}/${b}`, true],
      ]);
    });
  });
}
