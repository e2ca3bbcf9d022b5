/**
 * PostgreSQL stopped and started under a running hub process (issue 35, point 3): while it is down, every route that
 * needs it answers 503 with Retry-After within STORE_TIMEOUT_MS, /healthz says 503 within a second; once it is
 * back the process serves again within seconds, and a save answered 200 is archived and pushed once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { POSTGRES_MISSING, restartablePostgres, type RestartablePostgres } from "../helpers/postgres.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/server.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

const ADMIN_TOKEN = "restart-admin-token-0123456789";
const HOOK = "/hook";
const DOWN_MS = 6000;
const start = serversForThisFile();

describe.skipIf(POSTGRES_MISSING !== null)("hub mode: PostgreSQL stopped and started under a running process", () => {
  const { pair, env: keys } = testKeys();
  let pg: RestartablePostgres;
  let pushes: RecordingServer;
  let server: RunningServer;

  beforeAll(async () => {
    pg = await restartablePostgres();
    pushes = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
    server = await start({ ...keys, ...hubSettings(pg.url), ADMIN_TOKEN, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${pushes.url}${HOOK}`, JOB_BACKOFF_MS: "200,400,800,1600,3200" });
  }, 60_000);
  afterAll(() => pushes?.stop());

  const owner = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const timed = async (path: string, init: RequestInit = {}) => {
    const began = performance.now();
    const response = await fetch(`${server.url}${path}`, init);
    await response.arrayBuffer();
    return { path, status: response.status, retryAfter: response.headers.get("retry-after"), ms: Math.round(performance.now() - began) };
  };
  const pushesOf = (player: string) => pushes.requestsTo(HOOK).filter((request) => (request.json as { playerId: string }).playerId === player).length;

  test("503 with Retry-After within seconds while it is down, healthz under a second, then recovery", async () => {
    expect((await uploadSave(server.url, encryptedSave(pair), "before", "7488393821760000001")).status).toBe(200);
    await eventually(async () => pushesOf("7488393821760000001") === 1, 30_000, "the first save pushed");
    const page = await fetch(`${server.url}/`, { headers: owner }).then((response) => response.text());
    const mapPath = /\/maps\/[0-9a-f]{32}\/[\w-]+\.png/.exec(page)?.[0] ?? "/maps/00000000000000000000000000000000/site_5.png";

    await pg.stop();
    const stoppedAt = performance.now();
    const answers: Awaited<ReturnType<typeof timed>>[] = [];
    const health: Awaited<ReturnType<typeof timed>>[] = [];
    let index = 0;
    while (performance.now() - stoppedAt < DOWN_MS) {
      const player = `74883938217600001${String(index++).padStart(2, "0")}`;
      const began = performance.now();
      const upload = await uploadSave(server.url, encryptedSave(pair), `down-${index}`, player);
      answers.push({ path: "/uploadSaveData", status: upload.status, retryAfter: upload.headers.get("retry-after"), ms: Math.round(performance.now() - began) });
      answers.push(await timed("/", { headers: owner }), await timed(mapPath), await timed("/api/jp/user/7488393821760000001/mysekai", { headers: { authorization: "Bearer not-a-token" } }));
      health.push(await timed("/healthz"));
    }
    expect(answers.filter((answer) => answer.status !== 503 || answer.retryAfter === null || answer.ms > 5000)).toEqual([]);
    expect(health.filter((answer) => answer.status !== 503 || answer.ms >= 1000)).toEqual([]);
    // The log names the store, and never the map's capability token.
    expect(server.output()).toContain("database unavailable; answered 503 path=/maps/…");
    expect(server.output()).not.toContain(mapPath.split("/")[2]!);

    await pg.start();
    const startedAt = performance.now();
    await eventually(async () => (await timed("/healthz")).status === 200, 15_000, "healthy again");
    const healthyMs = Math.round(performance.now() - startedAt);
    const after = "7488393821760000002";
    expect((await uploadSave(server.url, encryptedSave(pair), "after", after)).status).toBe(200);
    await eventually(async () => pushesOf(after) === 1, 30_000, "the save after the restart pushed");
    const pushedMs = Math.round(performance.now() - startedAt);
    expect(pushesOf("7488393821760000001")).toBe(1);

    const slowest = (list: typeof answers) => Math.max(...list.map((answer) => answer.ms));
    console.log(
      `hub-pg-restart: down ${DOWN_MS} ms: ${answers.length} answers all 503 with Retry-After (slowest ${slowest(answers)} ms), ` +
        `${health.length} healthz 503 (slowest ${slowest(health)} ms); healthy ${healthyMs} ms after the start, a new save pushed ${pushedMs} ms after it`,
    );

    // Frozen: connections stay open and nothing answers (a hung server, a network that drops packets). Only the
    // deadlines answer: STORE_TIMEOUT_MS (4 s) for a request, 800 ms for healthz.
    pg.freeze(true);
    let frozen: Awaited<ReturnType<typeof timed>>[];
    try {
      frozen = await Promise.all([
        timed("/", { headers: owner }),
        timed(mapPath),
        timed("/healthz"),
        (async (began = performance.now()) => {
          const response = await uploadSave(server.url, encryptedSave(pair), "frozen", "7488393821760000003");
          return { path: "/uploadSaveData", status: response.status, retryAfter: response.headers.get("retry-after"), ms: Math.round(performance.now() - began) };
        })(),
      ]);
    } finally {
      pg.freeze(false);
    }
    expect(frozen.filter((answer) => answer.status !== 503 || answer.retryAfter === null && answer.path !== "/healthz" || answer.ms > 5000)).toEqual([]);
    expect(frozen.find((answer) => answer.path === "/healthz")!.ms).toBeLessThan(1000);
    await eventually(async () => (await timed("/healthz")).status === 200, 15_000, "healthy after the freeze");
    console.log(`hub-pg-restart: frozen: ${frozen.map((answer) => `${answer.path} ${answer.status} ${answer.ms} ms`).join(", ")}`);
  }, 90_000);
});
