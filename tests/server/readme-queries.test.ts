/**
 * Every ```sql block of README.md and README.zh-CN.md, run as an owner runs it (a read-only open beside the running
 * service; SQLite's file also through the sqlite3 CLI when the machine has it) on a service that has taken a real save
 * (pushed to one channel, refused by another), a partial refresh and a save with the wrong key, on SQLite and on
 * PostgreSQL; each block's answer is checked against what the service stored. The READMEs hold the same queries.
 * A copy whose view lost a column or answers wrongly fails the checks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { REAL_SAVE_PLAYER, REAL_SAVE_URL, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";
import { pgReader, SQLITE_CLI, sqliteCliReader, sqliteReader, type Row, type ViewReader } from "../helpers/view-readers.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

type Store = "sqlite" | "postgresql";
interface Block {
  /** Both stores, or the one its fence names (```sql sqlite). */
  store: Store | "both";
  sql: string;
}

const ROOT = join(import.meta.dir, "../..");
function sqlBlocks(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^```sql(?: (sqlite|postgresql))?\n([\s\S]*?)^```$/gm)].map((m) => ({ store: (m[1] as Store | undefined) ?? "both", sql: m[2]!.trim() }));
}
/** The query without its comment lines: what both READMEs must share (the comments are in their languages). */
const queryOf = (block: Block) => ({ store: block.store, query: block.sql.split("\n").filter((line) => !line.startsWith("--")).join("\n") });

const OTHER_PLAYER = "7000000000000000002";
const SECRET = "Secret-4d1e8b";
const MIB = 1048576;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
const cnLocal = (ms: number) => `${utc(ms + 8 * 3600_000)} UTC+8`;

/** What the service stored, read from its tables (not from the views). */
interface Facts {
  full: { id: number; receivedAt: number; relPath: string };
  partial: { id: number; receivedAt: number };
  wrong: { id: number; receivedAt: number };
  pushSentAt: number;
  saveBytes: number;
}

/** Each block's check, in the READMEs' order; a new block comes with its own. */
const CHECKS: ((rows: Row[], facts: Facts) => void)[] = [
  // Today's saves
  (rows, f) => {
    expect(rows.map(({ save_id, player_id, region, kind, state }) => ({ save_id, player_id, region, kind, state }))).toEqual([
      { save_id: f.wrong.id, player_id: OTHER_PLAYER, region: "cn", kind: "not read yet", state: "failed" },
      { save_id: f.partial.id, player_id: REAL_SAVE_PLAYER, region: "cn", kind: "partial", state: "done" },
      { save_id: f.full.id, player_id: REAL_SAVE_PLAYER, region: "cn", kind: "full save", state: "done" },
    ]);
    expect(rows.map((row) => row.received_local)).toEqual([f.wrong, f.partial, f.full].map((save) => cnLocal(save.receivedAt)));
    expect(rows[2]!.archive_folder).toBe(f.full.relPath);
    expect(rows[0]!.archive_folder).toBeNull();
  },
  // Failed saves, and why
  (rows, f) => {
    expect(rows).toEqual([{ save_id: f.wrong.id, player_id: OTHER_PLAYER, received_utc: utc(f.wrong.receivedAt), stage: "generate", failure: expect.stringContaining("does not decrypt under any configured key") }]);
  },
  // A player's last week
  (rows, f) => {
    expect(rows).toEqual([
      { save_id: f.full.id, received_local: cnLocal(f.full.receivedAt), kind: "full save", state: "done", failure: null, archive_folder: f.full.relPath },
      { save_id: f.partial.id, received_local: cnLocal(f.partial.receivedAt), kind: "partial", state: "done", failure: null, archive_folder: expect.stringMatching(new RegExp(`^by-id/${REAL_SAVE_PLAYER}/\\d{8}_\\d{6}`)) },
    ]);
  },
  // Pushes that failed: Telegram's refusal, its token (which the answer quoted) replaced
  (rows, f) => {
    expect(rows).toEqual([{ push_id: expect.any(Number), save_id: f.full.id, player_id: REAL_SAVE_PLAYER, channel: "telegram", route: "default", attempts: 1, last_error: expect.stringContaining("HTTP 400") }]);
    expect(rows[0]!.last_error).toContain("***");
    expect(rows[0]!.last_error).not.toContain(SECRET);
  },
  // Players
  (rows, f) => {
    expect(rows).toEqual([
      { player_id: REAL_SAVE_PLAYER, name: "Alice", last_save_utc: utc(f.partial.receivedAt), last_push_utc: utc(f.pushSentAt), saves: 2, failed_saves: 0, pushes_sent: 1, pushes_failed: 1 },
      { player_id: OTHER_PLAYER, name: null, last_save_utc: utc(f.wrong.receivedAt), last_push_utc: null, saves: 1, failed_saves: 1, pushes_sent: 0, pushes_failed: 0 },
    ]);
  },
  // The queue: only the failed save's job is left
  (rows) => {
    expect(rows.map(({ state, jobs }) => ({ state, jobs }))).toEqual([{ state: "failed", jobs: 1 }]);
    expect(rows[0]!.oldest_minutes as number).toBeLessThan(30);
  },
  // SQLite's size
  (rows, f) => sizeCheck(rows, f, "(whole file)"),
  // PostgreSQL's size
  (rows, f) => sizeCheck(rows, f, "(whole database)"),
];

/** The whole is the largest row and holds the parts; `saves` holds at least every save's encrypted copy. */
function sizeCheck(rows: Row[], f: Facts, whole: string): void {
  const mib = new Map(rows.map((row) => [row.what as string, row.mib as number]));
  expect(mib.get(whole)).toBeGreaterThan(0);
  expect(rows[0]!.what).toBe(whole);
  const parts = rows.filter((row) => row.what !== whole).reduce((sum, row) => sum + (row.mib as number), 0);
  expect(parts).toBeLessThanOrEqual(mib.get(whole)! + 0.01 * rows.length);
  expect(mib.get("saves")!).toBeGreaterThanOrEqual(f.saveBytes / MIB - 0.01);
}

async function runBlocks(reader: ViewReader, store: Store, facts: Facts): Promise<number> {
  let ran = 0;
  for (const [i, block] of sqlBlocks("README.md").entries()) {
    if (block.store !== "both" && block.store !== store) continue;
    let rows: Row[];
    try {
      rows = await reader.all(block.sql);
    } catch (error) {
      throw new Error(`README block ${i + 1} failed on ${store}: ${block.sql}\n${error}`);
    }
    CHECKS[i]!(rows, facts);
    ran++;
  }
  return ran;
}

describe("the READMEs' queries", () => {
  test("both READMEs hold the same queries, at least five for each store, each with its check", () => {
    const english = sqlBlocks("README.md");
    expect(sqlBlocks("README.zh-CN.md").map(queryOf)).toEqual(english.map(queryOf));
    expect(english.length).toBe(CHECKS.length);
    for (const store of ["sqlite", "postgresql"]) expect(english.filter((block) => block.store === "both" || block.store === store).length).toBeGreaterThanOrEqual(5);
  });
});

let hooks: RecordingServer;
beforeAll(async () => {
  hooks = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
});
afterAll(() => hooks.stop());
const start = serversForThisFile();

const stores: { store: Store; skip: boolean; env: () => Promise<Record<string, string>>; reader: (server: RunningServer, env: Record<string, string>) => ViewReader }[] = [
  { store: "sqlite", skip: false, env: async () => ({}), reader: (server) => sqliteReader(server.dbPath) },
  { store: "postgresql", skip: POSTGRES_MISSING !== null, env: async () => hubSettings(await databaseForThisFile("empty")), reader: (_, env) => pgReader(env.DATABASE_URL!) },
];

for (const { store, skip, env, reader: readerFor } of stores) {
  describe.skipIf(skip)(`on ${store}`, () => {
    test("every block answers right on a live service after a real save, a push, a partial refresh and a save with the wrong key", async () => {
      const { pair, env: keys } = testKeys();
      const botToken = `123456:${SECRET}`;
      const hookPath = `/hook/${store}-${SECRET}`;
      // Telegram refuses, quoting the bot's token and the webhook's URL: neither may reach a view.
      for (const method of ["sendMediaGroup", "sendPhoto", "sendMessage"]) {
        hooks.setDefault(`/bot${botToken}/${method}`, { status: 400, body: { ok: false, description: `Bad Request: chat not found (bot${botToken}, ${hooks.url}${hookPath})` } });
      }
      const storeEnv = await env();
      const server = await start({ ...keys, ...storeEnv, NOTIFY_DEFAULT: "webhook+telegram", WEBHOOK_URL: `${hooks.url}${hookPath}`, TELEGRAM_BOT_TOKEN: botToken, TELEGRAM_CHAT_ID: "42", TELEGRAM_API_BASE: hooks.url });
      const reader = readerFor(server, storeEnv);
      try {
        const link = await ownerCliWith(storeEnv, server, "players", "add", REAL_SAVE_PLAYER, "--name", "Alice");
        expect(link.code).toBe(0);
        const saveOf = async (uploadId: string) => {
          const rows = await reader.all(`SELECT s.id, s.received_at, j.state FROM upload_tasks u JOIN saves s ON s.id = u.save_id LEFT JOIN jobs j ON j.save_id = s.id WHERE u.upload_id = '${uploadId}'`);
          return rows[0] as { id: number; received_at: number; state: string } | undefined;
        };
        const ingest = async (body: Uint8Array, uploadId: string, url: string, endState: string) => {
          expect((await uploadRealForm(server.url, body, uploadId, url)).status).toBe(200);
          const save = await eventually(async () => ((await saveOf(uploadId))?.state === endState ? saveOf(uploadId) : undefined), 60_000, `${uploadId} ${endState}`);
          return { id: save!.id, receivedAt: save!.received_at };
        };

        const full = await ingest(encryptRaw(pair, realSave()), "full", REAL_SAVE_URL, "done");
        await eventually(async () => (await reader.all(`SELECT state FROM deliveries WHERE save_id = ${full.id} AND state <> 'pending'`)).length === 2, 60_000, "both pushes settled");
        const partialSave = realSave();
        (partialSave.updatedResources as Record<string, unknown>).userMysekaiHarvestMaps = [];
        const partial = await ingest(encryptRaw(pair, partialSave), "partial", REAL_SAVE_URL.replace("=True", "=False"), "done");
        const wrong = await ingest(encryptRaw(testKeys().pair, realSave()), "wrong-key", REAL_SAVE_URL.replaceAll(REAL_SAVE_PLAYER, OTHER_PLAYER), "failed");

        const [archive] = await reader.all(`SELECT rel_path FROM archives WHERE save_id = ${full.id}`);
        const [sent] = await reader.all(`SELECT sent_at FROM deliveries WHERE save_id = ${full.id} AND state = 'sent'`);
        const [sizes] = await reader.all(`SELECT sum(size) AS bytes FROM saves WHERE encrypted IS NOT NULL`);
        const facts: Facts = { full: { ...full, relPath: archive!.rel_path as string }, partial, wrong, pushSentAt: sent!.sent_at as number, saveBytes: sizes!.bytes as number };

        expect(await runBlocks(reader, store, facts)).toBeGreaterThanOrEqual(7);
        if (store === "sqlite") {
          if (SQLITE_CLI) expect(await runBlocks(sqliteCliReader(server.dbPath), store, facts)).toBeGreaterThanOrEqual(7);
          else console.warn("sqlite3 CLI missing (apt-get install sqlite3): the blocks ran through bun:sqlite only");
        }

        // Nothing secret in any view: not the tokens, the webhook's URL, the keys or the player's link.
        const [player] = await reader.all(`SELECT token FROM players WHERE player_id = '${REAL_SAVE_PLAYER}'`);
        for (const view of ["view_saves", "view_pushes", "view_players", "view_queue"]) {
          const all = JSON.stringify(await reader.all(`SELECT * FROM ${view}`));
          for (const secret of [SECRET, player!.token as string, pair.keyText.slice(4), hookPath]) expect(all).not.toContain(secret);
        }

        if (store === "sqlite") await brokenCopiesFail(server.dbPath, facts);
      } finally {
        await reader.close();
      }
    }, 180_000);
  });
}

/** The checks catch a view that lost a column a query reads, and one whose answer went wrong. */
async function brokenCopiesFail(path: string, facts: Facts): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "readme-broken-"));
  try {
    const broken = (name: string, from: string, to: string) => {
      const copyPath = join(dir, `${name}.sqlite`);
      const live = new Database(path, { readonly: true });
      live.exec(`VACUUM INTO '${copyPath}'`);
      live.close();
      const copy = new Database(copyPath);
      const { sql } = copy.query("SELECT sql FROM sqlite_master WHERE name = 'view_saves'").get() as { sql: string };
      expect(sql).toContain(from);
      copy.exec("DROP VIEW view_saves");
      copy.exec(sql.replace(from, to));
      copy.close();
      return sqliteReader(copyPath);
    };
    const runOn = async (reader: ViewReader) => {
      try {
        return await runBlocks(reader, "sqlite", facts);
      } finally {
        await reader.close();
      }
    };
    await expect(runOn(broken("same", "AS failure,", "AS failure,"))).resolves.toBeGreaterThanOrEqual(7);
    await expect(runOn(broken("column", "AS failure,", "AS reason,"))).rejects.toThrow(/no such column: failure/);
    await expect(runOn(broken("answer", "THEN 'partial'", "THEN 'full save'"))).rejects.toThrow();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
