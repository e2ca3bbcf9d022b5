/**
 * A consumer's webhook that hangs never holds back the saves' chat pushes (issue 49, point 4): with a webhook on
 * every save whose receiver never answers, each save's own push still goes out at once, before its webhook; the
 * webhooks run in their own lane (at most DATA_WEBHOOK_CONCURRENCY at once, DATA_WEBHOOK_TIMEOUT_MS each) and are
 * retried there, while the pipeline's slots keep drawing and pushing the next saves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { reads } from "../helpers/store-reads.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile(keyEnv);
const SAVES = 6;
const PLAYERS = Array.from({ length: SAVES }, (_, i) => `10000000000000005${String(i).padStart(2, "0")}`);
let receiver: RecordingServer;
let server: RunningServer;

beforeAll(async () => {
  receiver = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } });
  // The consumer never answers in time: each attempt runs to DATA_WEBHOOK_TIMEOUT_MS.
  receiver.setDefault("*", (request) => (request.path.startsWith("/hang/") ? { status: 200, delayMs: 120_000 } : { status: 200, body: "ok" }));
  server = await start({ NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${receiver.url}/push`, DATA_WEBHOOK_TIMEOUT_MS: "8000", DATA_WEBHOOK_CONCURRENCY: "2", JOB_BACKOFF_MS: "60000" });
  expect(await ownerCliLastLine(server, "data-webhooks", "add", `${receiver.url}/hang/{server}/{user_id}`)).toMatch(/data webhook \d+ added/);
}, 60_000);
afterAll(() => receiver.stop());

describe("consumer webhooks' own lane", () => {
  test("a hanging consumer on every save: every save's chat push still goes out within seconds", async () => {
    const started = Date.now();
    for (const [i, player] of PLAYERS.entries()) {
      expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed: 4970 + i, now: Date.now() }), crypto.randomUUID(), player)).status).toBe(200);
    }
    const pushed = () => new Set(receiver.requestsTo("/push").map((r) => (r.json as { playerId: string }).playerId));
    await eventually(() => PLAYERS.every((player) => pushed().has(player)), 60_000, "every save's chat push");
    const tookMs = Date.now() - started;
    // Six saves drawn on a busy two-core machine; before the lane the first push alone waited for the
    // consumer's timeout and each slot then held one hanging webhook after another.
    expect(tookMs).toBeLessThan(20_000);
    // Each consumer was called (in its lane), and no more than the lane's two at once before the first timed out.
    await eventually(() => receiver.requests.filter((r) => r.path.startsWith("/hang/")).length >= 2, 30_000, "the consumer's calls");
    const hangs = receiver.requests.filter((r) => r.path.startsWith("/hang/"));
    const firstAt = hangs[0]!.receivedAt;
    expect(hangs.filter((r) => r.receivedAt < firstAt + 6000).length).toBeLessThanOrEqual(2);
    // The timed-out delivery is recorded as a retry (its own timeout, not NOTIFY_TIMEOUT_MS's 30 s).
    await eventually(async () => (await reads(server).allPushes()).some((push) => push.channel === "data-webhook" && push.last_error !== null), 30_000, "a webhook's timeout recorded");
    expect(server.output()).toMatch(/channel=data-webhook .*outcome=retry/);
  }, 120_000);
});
