/**
 * PostgreSQL drops a hub's connections under traffic (issue 35, point 1): two real processes take uploads while every
 * backend of theirs is ended with pg_terminate_backend every few hundred ms, as a failover, a pooler's restart or
 * an idle timeout does. No process exits; every answer is a 200 or a 503 with Retry-After (never a 500, never a cut
 * connection); every save answered 200 is archived once and pushed once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { hubDeployment } from "../helpers/deployments.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { pgReads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/server.ts";

const SAVES = 24;
const LANES = 3;
const DROP_EVERY_MS = 250;
const HOOK = "/hook";
/** This file's own connections, which the drops spare (the services' are ended). */
const OURS = "hub-drops-test";

const deployment = hubDeployment("drops");
const start = serversForThisFile();
const playerOf = (index: number) => `748839382175439${String(index).padStart(4, "0")}`;

describe.skipIf(deployment.skip !== null)("hub mode: PostgreSQL ends the processes' connections under traffic", () => {
  const { pair, env: keys } = testKeys();
  let pushes: RecordingServer;
  let sql: postgres.Sql;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    const settings = await deployment.settings();
    sql = postgres(settings.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { application_name: OURS } });
    pushes = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
    const env = { ...keys, ...settings, JOB_LEASE_MS: "3000", NOTIFY_TIMEOUT_MS: "2000", JOB_BACKOFF_MS: "100,200,400,800,1600", NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${pushes.url}${HOOK}` };
    servers.push(...(await Promise.all([start(env), start(env)])));
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await pushes?.stop();
    await deployment.end();
  });

  test("no process exits, every answer is 200 or 503, every 200 archived and pushed once", async () => {
    const answers: { player: string; status: number; retryAfter: string | null; text: string }[] = [];
    const cut: string[] = [];
    let next = 0;
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      while (next < SAVES) {
        const index = next++;
        const player = playerOf(index);
        try {
          const response = await uploadSave(servers[(index + lane) % servers.length]!.url, encryptedSave(pair, { sites: [5] }), `drops-${index}`, player);
          answers.push({ player, status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() });
        } catch (error) {
          cut.push(`${player}: ${String(error)}`);
        }
        await Bun.sleep(20 + ((index * 37) % 80));
      }
    });
    let sending = true;
    const sent = Promise.all(lanes).then(() => void (sending = false));
    let ended = 0;
    while (sending) {
      const rows = await sql<{ ended: boolean }[]>`
        SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> ${OURS} AND backend_type = 'client backend'`;
      ended += rows.filter((row) => row.ended).length;
      await Bun.sleep(DROP_EVERY_MS);
    }
    await sent;

    expect(cut).toEqual([]);
    expect(answers.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.retryAfter !== null))).toEqual([]);
    const owed = answers.filter((answer) => answer.status === 200).map((answer) => answer.player);
    expect(owed.length).toBeGreaterThan(0);
    const store = pgReads(sql);
    await eventually(async () => (await store.jobs()).every((job) => ["done", "failed"].includes(job.state)), 60_000, "every job settled");

    const archives = await store.archives();
    const saves = (await store.savesWithJobs())
      .filter((save) => save.state !== null)
      .map((save) => ({ player_id: save.player_id, state: save.state, archives: archives.filter((archive) => archive.save_id === save.id).length }));
    const byPlayer = new Map(saves.map((save) => [save.player_id, save]));
    for (const player of owed) expect({ player, save: byPlayer.get(player) }).toMatchObject({ save: { state: "done", archives: 1 } });
    const pushed = new Map<string, number>();
    for (const request of pushes.requestsTo(HOOK)) {
      const player = (request.json as { playerId: string }).playerId;
      pushed.set(player, (pushed.get(player) ?? 0) + 1);
    }
    // Every save stored (answered 200, or committed before a 503) is pushed once.
    expect(saves.map((save) => ({ player: save.player_id, pushes: pushed.get(save.player_id) ?? 0 })).filter((row) => row.pushes !== 1)).toEqual([]);

    for (const server of servers) {
      expect(server.output()).not.toContain("TypeError");
      // A connection ended by the last round may fail one more query: healthy again within seconds.
      await eventually(async () => (await fetch(`${server.url}/healthz`)).status === 200, 10_000, "healthy again");
      expect(await server.stop()).toBe(0); // alive until now, and a clean stop
    }
    const refused = answers.length - owed.length;
    console.log(`hub-pg-drops: ${SAVES} uploads, ${owed.length} answered 200, ${refused} answered 503, ${ended} backends ended, pushes per save: ${[...new Set(pushed.values())].join(",")}`);
  }, 120_000);
});
