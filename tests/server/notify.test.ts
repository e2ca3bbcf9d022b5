import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { deploymentHooks, deployments, sqliteHalfOnly } from "../helpers/deployments.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { startServer as startProcess } from "../helpers/server.ts";
import { SMALL_MAPS } from "../helpers/small-maps.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

setDefaultTimeout(60_000);
const BOT_TOKEN = "7777:telegram-secret-token";
const BARK_KEY = "bark/device?key";
const WEBHOOK_SECRET = "hmac-secret-value";
const OK_TELEGRAM = { status: 200, body: { ok: true, result: [] } };

let api: RecordingServer;
const { pair, env: keyEnv } = testKeys();

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true, code: 200, status: "ok", retcode: 0, result: [] } } });
});
afterAll(async () => {
  await api.stop();
});

function channelEnv(): Record<string, string> {
  return {
    ...keyEnv,
    JOB_BACKOFF_MS: "100,100,100",
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_CHAT_ID: "-100123",
    TELEGRAM_API_BASE: `${api.url}/tg`,
    BARK_SERVER: `${api.url}/bark`,
    DISCORD_WEBHOOK_URL: `${api.url}/discord/webhooks/1/discord-secret`,
    ONEBOT_URL: `${api.url}/onebot`,
    ONEBOT_TOKEN: "onebot-secret-token",
    ONEBOT_TARGET: "group:123456",
    WEBHOOK_URL: `${api.url}/hook/webhook-secret-path`,
    WEBHOOK_SECRET,
  };
}

for (const deployment of deployments("notify")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    const { settings, servers } = deploymentHooks(deployment, "SIGKILL");
    /**
     * Routing and the channels' formats are the same on every store; the delivery rules (a row per target, retries,
     * parts answered, the owner's retry and reprocess) run on both stores in delivery-store, job-store and
     * notify-stage.*.contract.test.ts, and the owner CLI on a hub in hub-two-services.test.ts. The hub keeps every
     * channel end to end, the crash between two channels and the images served from its bucket.
     */
    const notOnHub = sqliteHalfOnly(deployment);

    /** In this process, unless the test kills it. */
    const startHere = async (env: Record<string, string>, dataDir: string, killable = false) => {
      const running = await (killable ? startProcess : startServer)({ env: { ...SMALL_MAPS, ...settings, ...env }, dataDir });
      servers.push(running);
      return running;
    };
    /** The owner CLI beside a server; on a hub it acts on the hub's PostgreSQL. */
    const cli = (server: RunningServer, ...args: string[]) => ownerCliWith({ ...keyEnv, ...settings }, server, ...args);

    /** Starts a server whose config folder routes our player with `route`, and posts one save. */
    async function pushOnce(route: unknown, extraEnv: Record<string, string> = {}, uploadId: string = crypto.randomUUID(), killable = false) {
      const dataDir = mkdtempSync(join(tmpdir(), "mysekai-notify-"));
      mkdirSync(join(dataDir, "config"));
      // `undefined`: our player is not in push_map.json at all.
      const pushMap = route === undefined ? { "1000000000000000001": "telegram" } : { [PLAYER_ID]: route };
      writeFileSync(join(dataDir, "config", "push_map.json"), JSON.stringify(pushMap));
      writeFileSync(join(dataDir, "config", "bark_map.json"), JSON.stringify({ phone: BARK_KEY }));
      const running = await startHere({ ...channelEnv(), ...extraEnv }, dataDir, killable);
      expect((await uploadSave(running.url, encryptedSave(pair), uploadId)).status).toBe(200);
      const saveId = (await reads(running, deployment).saveOfUpload(uploadId))!;
      return { server: running, saveId };
    }

    const deliveries = (server: RunningServer, saveId: number) => reads(server, deployment).pushes(saveId);

    const waitDone = (server: RunningServer, saveId: number) =>
      jobReaches(server, saveId, "done", 30_000, "notify done", deployment);

    describe("every channel, routed per player", () => {
      test("a list route sends to each channel once with its own format", async () => {
        api.reset();
        const { server, saveId } = await pushOnce(["phone+tg", "discord", "onebot", "webhook"], { PUBLIC_BASE_URL: "http://maps.example" });
        await waitDone(server, saveId);
        expect((await deliveries(server, saveId)).map((d) => `${d.channel}:${d.route}:${d.state}`)).toEqual([
          "bark:phone:sent",
          "discord:default:sent",
          "onebot:default:sent",
          "telegram:default:sent",
          "webhook:default:sent",
        ]);

        const album = api.requestsTo(`/tg/bot${BOT_TOKEN}/sendMediaGroup`);
        expect(album).toHaveLength(1);
        const media = JSON.parse(String(album[0]!.form!.get("media")));
        expect(media).toHaveLength(5);
        expect(media[0].caption).toContain(PLAYER_ID);
        expect(album[0]!.form!.get("chat_id")).toBe("-100123");
        expect(album[0]!.form!.get(media[0].media.replace("attach://", ""))).toBeInstanceOf(Blob);

        const bark = api.requests.filter((r) => r.path.startsWith("/bark"));
        expect(bark).toHaveLength(1);
        expect(JSON.stringify(bark.map((r) => r.json))).toContain("http://maps.example/maps/");

        const discord = api.requestsTo("/discord/webhooks/1/discord-secret");
        expect(discord).toHaveLength(1);
        expect(discord[0]!.form!.get("files[0]")).toBeInstanceOf(Blob);

        const onebot = api.requestsTo("/onebot/send_group_msg");
        expect(onebot[0]!.headers.authorization).toBe("Bearer onebot-secret-token");
        expect(JSON.stringify(onebot[0]!.json)).toContain("base64://");

        const hook = api.requestsTo("/hook/webhook-secret-path")[0]!;
        const expected = `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(hook.body).digest("hex")}`;
        expect(hook.headers["x-signature-256"]).toBe(expected);
        const payload = hook.json as { playerId: string; images: { name: string; url: string }[] };
        expect(payload.playerId).toBe(PLAYER_ID);

        // The image URLs the push carried are served by the service itself, under the archive's token.
        const image = payload.images.find((i) => i.name === "site_5.png")!;
        const local = image.url.replace("http://maps.example", server.url);
        const response = await fetch(local);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("image/png");
        expect(response.headers.get("cache-control")).toContain("max-age");
      }, 60_000);

      notOnHub('"none" sends nothing; a player not in push_map goes to NOTIFY_DEFAULT', async () => {
        api.reset();
        const { server, saveId } = await pushOnce("none");
        await waitDone(server, saveId);
        expect(await deliveries(server, saveId)).toEqual([]);
        expect(api.requests).toHaveLength(0);
        // Stopped first: on a hub it would claim the next save too and route it by its own push_map.
        await server.stop();

        const other = await pushOnce(undefined, { NOTIFY_DEFAULT: "webhook" }, "default-route" as `${string}-${string}-${string}-${string}-${string}`);
        await waitDone(other.server, other.saveId);
        expect((await deliveries(other.server, other.saveId)).map((d) => d.channel)).toEqual(["webhook"]);
      }, 60_000);

      notOnHub("an unknown alias and an unconfigured channel are skipped deliveries and start-up warnings", async () => {
        const { server, saveId } = await pushOnce(["nosuchalias", "telegram"], { TELEGRAM_BOT_TOKEN: "", TELEGRAM_CHAT_ID: "" });
        await waitDone(server, saveId);
        const rows = await deliveries(server, saveId);
        expect(rows.map((d) => `${d.channel}:${d.state}`)).toEqual(["bark:skipped", "telegram:skipped"]);
        expect(rows[1]!.last_error).toContain("not configured");
        expect(server.output()).toMatch(/\[CONFIG\] WARN .*telegram/);
      }, 30_000);
    });

    describe("failures", () => {
      notOnHub("Telegram 429 then success: waits retry_after and sends once", async () => {
        api.reset();
        api.respond(`/tg/bot${BOT_TOKEN}/sendMediaGroup`, { status: 429, body: { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 1 } } }, OK_TELEGRAM);
        const { server, saveId } = await pushOnce("telegram");
        await waitDone(server, saveId);
        const calls = api.requestsTo(`/tg/bot${BOT_TOKEN}/sendMediaGroup`);
        expect(calls).toHaveLength(2);
        expect(calls[1]!.receivedAt - calls[0]!.receivedAt).toBeGreaterThanOrEqual(900);
        expect((await deliveries(server, saveId))[0]).toMatchObject({ state: "sent", attempts: 2 });
      }, 30_000);

      notOnHub("a 500 then success is sent once; a permanent 400 fails alone while the others are sent", async () => {
        api.reset();
        api.respond("/hook/webhook-secret-path", { status: 500, body: "boom" }, { status: 200, body: "ok" });
        api.respond(`/tg/bot${BOT_TOKEN}/sendMediaGroup`, { status: 400, body: { ok: false, error_code: 400, description: `Bad Request: chat not found (bot${BOT_TOKEN})` } });
        const { server, saveId } = await pushOnce(["telegram", "webhook", "discord"]);
        await waitDone(server, saveId);
        const rows = await deliveries(server, saveId);
        expect(rows.map((d) => `${d.channel}:${d.state}:${d.attempts}`)).toEqual(["discord:sent:1", "telegram:failed:1", "webhook:sent:2"]);
        expect(api.requestsTo("/discord/webhooks/1/discord-secret")).toHaveLength(1);
        const logs = server.output();
        expect(logs).toMatch(/\[NOTIFY\] WARN delivery failed channel=telegram .*outcome=failed/);
        expect(logs).toMatch(/\[NOTIFY\] sent channel=discord target=default player=\d+ save=\d+ attempt=1 ms=\d+ outcome=sent/);
        for (const secret of [BOT_TOKEN, "discord-secret", "webhook-secret-path", "onebot-secret-token", WEBHOOK_SECRET, BARK_KEY]) {
          expect(logs).not.toContain(secret);
          expect(JSON.stringify(rows)).not.toContain(secret);
        }
      }, 30_000);

      test("a crash between two channels re-sends neither the sent one nor twice the one in flight", async () => {
        api.reset();
        // Discord answers only after a long delay: the process dies while it waits; the webhook was already sent.
        api.respond("/discord/webhooks/1/discord-secret", { status: 200, body: {}, delayMs: 60_000 });
        // On a hub the restarted process takes the killed one's job over once its lease expires: keep it short.
        const lease: Record<string, string> = deployment.hub ? { JOB_LEASE_MS: "4000", NOTIFY_TIMEOUT_MS: "3000" } : {};
        const { server, saveId } = await pushOnce(["webhook", "discord"], lease, crypto.randomUUID(), true);
        await eventually(() => api.requestsTo("/discord/webhooks/1/discord-secret").length === 1, 30_000, "discord in flight");
        await server.stop("SIGKILL");
        const again = await startHere({ ...channelEnv(), ...lease }, server.dataDir);
        await waitDone(again, saveId);
        expect(api.requestsTo("/hook/webhook-secret-path")).toHaveLength(1);
        // The in-flight Discord request never got its answer, so it is sent again once, and only once.
        expect(api.requestsTo("/discord/webhooks/1/discord-secret")).toHaveLength(2);
        expect((await deliveries(again, saveId)).map((d) => d.state)).toEqual(["sent", "sent"]);
      }, 60_000);
    });

    describe("multi-request channels and owner commands", () => {
      notOnHub("a Bark push that fails is sent again, once", async () => {
        api.reset();
        const ok = { status: 200, body: { code: 200, message: "success" } };
        api.respond("/bark/push", { status: 500, body: { code: 500, message: "busy" } }, ok);
        const { server, saveId } = await pushOnce("phone", { PUBLIC_BASE_URL: "http://maps.example" });
        await waitDone(server, saveId);
        // One notification a refresh (the overview, its finds, the player's page): refused once, then sent.
        const pushes = api.requestsTo("/bark/push").map((request) => request.json as { image: string; url: string });
        expect(pushes).toHaveLength(2);
        expect(pushes[1]!.image).toEndWith("/overview.png");
        expect(pushes[1]!.url).toBe(`http://maps.example/players/${PLAYER_ID}`);
        expect((await deliveries(server, saveId))[0]).toMatchObject({ channel: "bark", state: "sent", attempts: 2 });
      }, 30_000);

      notOnHub("retry --failed resends only the failed delivery, once the channel works again", async () => {
        api.reset();
        api.respond("/hook/webhook-secret-path", { status: 403, body: "forbidden" });
        const { server, saveId } = await pushOnce(["webhook", "discord"]);
        await waitDone(server, saveId);
        expect((await deliveries(server, saveId)).map((d) => `${d.channel}:${d.state}`)).toEqual(["discord:sent", "webhook:failed"]);
        // A hub's database also holds the failures of the file's earlier tests: all of them are queued again.
        const failedJobs = (await reads(server, deployment).jobs()).filter((job) => job.state === "failed").length;
        const failedDeliveries = (await reads(server, deployment).allPushes()).filter((push) => push.state === "failed").length;
        const retried = await cli(server, "retry", "--failed");
        expect(retried.out).toContain(`${failedJobs} failed job${failedJobs === 1 ? "" : "s"} and ${failedDeliveries} failed deliver${failedDeliveries === 1 ? "y" : "ies"} queued again`);
        await eventually(async () => (await deliveries(server, saveId)).every((d) => d.state === "sent"), 20_000, "webhook resent");
        expect(api.requestsTo("/hook/webhook-secret-path")).toHaveLength(2);
        expect(api.requestsTo("/discord/webhooks/1/discord-secret")).toHaveLength(1);
      }, 30_000);

      notOnHub("reprocess runs the stages again without a push; reprocess --notify pushes again", async () => {
        api.reset();
        const { server, saveId } = await pushOnce("webhook");
        await waitDone(server, saveId);
        expect(api.requestsTo("/hook/webhook-secret-path")).toHaveLength(1);
        expect((await cli(server, "reprocess", String(saveId))).out).toContain("(no push)");
        await eventually(() => server.output().match(new RegExp(`save=${saveId} .*stage=notify .*push not requested`)), 20_000, "quiet reprocess");
        expect(api.requestsTo("/hook/webhook-secret-path")).toHaveLength(1);

        expect((await cli(server, "reprocess", String(saveId), "--notify")).code).toBe(0);
        await eventually(() => api.requestsTo("/hook/webhook-secret-path").length === 2, 20_000, "second push");
      }, 60_000);
    });

    describe("/maps/<token>/<file>.png", () => {
      test("serves exactly the archive's images and nothing else", async () => {
        const { server, saveId } = await pushOnce("none");
        await waitDone(server, saveId);
        const { token, files } = (await reads(server, deployment).archive(saveId))!;
        const pngs = files.filter((name) => name.endsWith(".png"));
        expect(pngs).toHaveLength(5);
        for (const name of pngs) {
          const response = await fetch(`${server.url}/maps/${token}/${name}`);
          expect(response.status).toBe(200);
          expect(response.headers.get("content-type")).toBe("image/png");
          expect(new Uint8Array(await response.arrayBuffer()).subarray(1, 4)).toEqual(new TextEncoder().encode("PNG"));
        }
        const wrongToken = "0".repeat(32);
        for (const path of [
          `/maps/${wrongToken}/site_5.png`,
          `/maps/${token}/save.bin`,
          `/maps/${token}/save.json.gz`,
          `/maps/${token}/summary.json`,
          `/maps/${token}/site_99.png`,
          `/maps/${token}/`,
          `/maps/${token}/..%2F..%2Fingest.sqlite`,
          `/maps/`,
        ]) {
          expect({ path, status: (await fetch(`${server.url}${path}`)).status }).toEqual({ path, status: 404 });
        }
      }, 30_000);
    });
  });
}
