/**
 * Crash in hub mode at random (issue 23, point 4): three real processes on one PostgreSQL and one Swift bucket take
 * uploads and reports spread over them at random, while processes are SIGKILLed at random moments and restarted.
 * A request to a process that dies gets no 200, and its save is not owed. Every save answered 200 ends with one
 * archives row, one folder in the bucket holding its files, and one push on each of two routes (webhook, OneBot).
 * The only extra pushes allowed come from the at-least-once window: the sender was killed after the receiver got the
 * push and before it committed "sent" (crash-safety.test.ts's rule on SQLite).
 * The seed is printed; `HUB_CRASH_SEED=<n>` replays its schedule (what goes where, the pauses; not the timing).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hubDeployment } from "../helpers/deployments.ts";
import { gzipReport, REPORT_PATH } from "../helpers/har.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, saveUrl, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/server.ts";
import { reads } from "../helpers/store-reads.ts";
import { seededRandom } from "../../src/samples/index.ts";

const SEED = Number(process.env.HUB_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PROCESSES = 3;
const SAVES = 36;
const LANES = 2;
const KILLS_AFTER_SENDING = 3;
const LEASE_MS = 2000;
const HOOK = "/hook";
const ONEBOT_DELAY_MS = 300;
const ONEBOT = "/onebot";
/** How long after a push its sender may die and leave it uncommitted (the answer, then one UPDATE, on a busy machine). */
const WINDOW_MS = 2000;

const PREFIX = "hub";
const deployment = hubDeployment(PREFIX);
const start = serversForThisFile();
const random = seededRandom(SEED); // what is sent, and to which live process
const pacing = seededRandom(SEED + 1); // pauses between sends
const killClock = seededRandom(SEED + 2); // when the kills land, whom they hit, how long a process stays down
const hex = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
/** A player of its own per save: a save's rows, folder and pushes are found by its player. */
const playerOf = (index: number) => `748839382174439${String(index).padStart(4, "0")}`;

interface Instance {
  server: RunningServer;
  killedAt: number | null;
}

describe.skipIf(deployment.skip !== null)("hub mode: processes SIGKILLed and restarted at random", () => {
  const { pair, env: keys } = testKeys();
  let env: Record<string, string>;
  let pushes: RecordingServer;
  let bucket: Bun.S3Client;
  const instances: Instance[] = [];
  /** The live process of each slot; null while it is down. */
  const slots: (Instance | null)[] = [];

  beforeAll(async () => {
    console.log(`hub-crash-random seed=${SEED} (HUB_CRASH_SEED=${SEED} replays it)`);
    const settings = await deployment.settings();
    pushes = await startRecordingServer({ defaultResponse: { status: 200, body: { status: "ok", retcode: 0 } } });
    // OneBot (the second route) answers slowly, as one uploading images does: a save spends a while in notify with
    // its webhook sent, so kills land there too and the process taking over must not send that push again.
    pushes.setDefault(`${ONEBOT}/send_group_msg`, { status: 200, body: { status: "ok", retcode: 0 }, delayMs: ONEBOT_DELAY_MS });
    bucket = new Bun.S3Client({
      endpoint: settings.S3_ENDPOINT!,
      bucket: new URL(settings.ARCHIVE_URL!).host,
      region: settings.S3_REGION!,
      accessKeyId: settings.S3_ACCESS_KEY_ID!,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY!,
    });
    env = {
      ...keys,
      ...settings,
      JOB_LEASE_MS: String(LEASE_MS),
      JOB_BACKOFF_MS: "50,100,200,400,800",
      NOTIFY_TIMEOUT_MS: "1000",
      NOTIFY_DEFAULT: "webhook+onebot",
      WEBHOOK_URL: `${pushes.url}${HOOK}`,
      ONEBOT_URL: `${pushes.url}${ONEBOT}`,
      ONEBOT_TARGET: "group:1",
    };
    // Started together: they migrate under the advisory lock, one of them first.
    const first = await Promise.all(Array.from({ length: PROCESSES }, () => launch()));
    slots.push(...first);
  }, 180_000);
  afterAll(async () => {
    await pushes?.stop();
    await deployment.end();
  });

  async function launch(): Promise<Instance> {
    const instance = { server: await start(env), killedAt: null };
    instances.push(instance);
    return instance;
  }

  async function killAndRestart(slot: number): Promise<void> {
    const dying = slots[slot]!;
    slots[slot] = null;
    await dying.server.stop("SIGKILL");
    dying.killedAt = Date.now();
    await Bun.sleep(killClock.int(0, 1000)); // down for a while: requests meant for it go elsewhere
    slots[slot] = await launch();
  }

  const WEBHOOK_SENT = /\[NOTIFY\] sent channel=webhook /g;
  /** The slot whose process next logs a webhook push as sent (its OneBot push goes next); null if none does soon. */
  async function nextWebhookSender(): Promise<number | null> {
    const sentSoFar = () => slots.map((slot) => slot?.server.output().match(WEBHOOK_SENT)?.length ?? 0);
    const before = sentSoFar();
    for (const deadline = Date.now() + 3000; Date.now() < deadline; await Bun.sleep(10)) {
      const slot = sentSoFar().findIndex((count, index) => count > before[index]!);
      if (slot !== -1) return slot;
    }
    return null;
  }

  // ---- what is sent, and what was answered ---------------------------------------------------------------

  interface Sent {
    player: string;
    save: Uint8Array;
    way: "upload" | "report";
  }
  const answers: { player: string; status: number; text: string }[] = [];
  const owed: Sent[] = [];
  let cut = 0;

  /** Each save, the way it is sent, and where among the processes live when it goes. */
  const plan: { sent: Sent; target: number }[] = Array.from({ length: SAVES }, (_, index) => ({
    sent: { player: playerOf(index), save: encryptedSave(pair, { sites: [5] }), way: random.chance(0.3) ? "report" : "upload" },
    target: random.next(),
  }));

  async function send(index: number): Promise<void> {
    const { sent, target } = plan[index]!;
    const live = slots.filter((slot): slot is Instance => slot !== null);
    const { server } = live[Math.floor(target * live.length)]!;
    try {
      const response =
        sent.way === "upload"
          ? await uploadSave(server.url, sent.save, `random-${index}`, sent.player)
          : await fetch(`${server.url}${REPORT_PATH}`, {
              method: "POST",
              body: gzipReport(sent.save, saveUrl(sent.player)) as Uint8Array<ArrayBuffer>,
              headers: { "content-type": "application/json", "content-encoding": "gzip" },
            });
      answers.push({ player: sent.player, status: response.status, text: await response.text() });
      if (response.status === 200) owed.push(sent);
    } catch {
      cut++; // the process died under it: no answer, nothing owed
    }
  }

  // ---- the pushes the recording server got ---------------------------------------------------------------

  interface Push {
    player: string;
    route: "webhook" | "onebot";
    at: number;
  }
  function pushesByPlayer(): Push[] {
    return pushes.requests.flatMap((request): Push[] => {
      if (request.path === HOOK) return [{ player: (request.json as { playerId: string }).playerId, route: "webhook", at: request.receivedAt }];
      if (request.path.startsWith(ONEBOT)) {
        const text = (request.json as { message: { type: string; data: { text?: string } }[] }).message[0]!.data.text!;
        const player = /· (\d+)/.exec(text)![1]!;
        return [{ player, route: "onebot", at: request.receivedAt }];
      }
      return [];
    });
  }

  /** An earlier copy is allowed only when a process died within the window after it and never logged that push sent. */
  function inWindow(push: Push, saveId: number): boolean {
    const sentLine = new RegExp(`\\[NOTIFY\\] sent channel=${push.route} .*save=${saveId} `);
    return instances.some(({ server, killedAt }) => killedAt !== null && killedAt >= push.at && killedAt - push.at <= WINDOW_MS && !sentLine.test(server.output()));
  }

  test("every save answered 200: one archives row, one folder with its files, one push per route", async () => {
    const began = Date.now();
    let next = 0;
    const lanes = Array.from({ length: LANES }, async () => {
      while (next < SAVES) {
        const index = next++;
        await Bun.sleep(pacing.int(50, 400));
        await send(index);
      }
    });
    let sending = true;
    const allSent = Promise.all(lanes).then(() => void (sending = false));
    // Kills while the saves arrive, then a few while the processes draw and push; one process always lives. Half
    // of them aim at a process that just committed a save's webhook push while its OneBot push is in flight.
    const restarts: Promise<void>[] = [];
    let afterSending = KILLS_AFTER_SENDING;
    let aimedKills = 0;
    while (sending || afterSending-- > 0) {
      await Bun.sleep(killClock.int(300, 1500));
      const aimed = killClock.chance(0.5) ? await nextWebhookSender() : null;
      const live = slots.flatMap((slot, index) => (slot === null ? [] : [index]));
      if (live.length < 2) continue;
      const hit = aimed !== null && live.includes(aimed);
      if (hit) aimedKills++;
      restarts.push(killAndRestart(hit ? aimed : killClock.pick(live)));
    }
    await allSent;
    await Promise.all(restarts);
    const server = slots[0]!.server;
    const store = reads(server, deployment);

    await eventually(async () => (await store.jobs()).every((job) => ["done", "failed"].includes(job.state)), 60_000, "every job settled");

    const kills = instances.filter((instance) => instance.killedAt !== null).length;
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]); // valid saves: never a 4xx, never a 5xx
    expect(kills).toBeGreaterThanOrEqual(KILLS_AFTER_SENDING);
    expect(owed.length).toBeGreaterThan(SAVES / 2);

    // Every save in the database, owed or not (a kill after the commit and before the 200): archived once, pushed once.
    const saves = (await store.savesWithJobs()).filter((save) => save.state !== null);
    const saveOf = new Map(saves.map((row) => [row.player_id, row]));
    expect(saveOf.size).toBe(saves.length);
    for (const { player, save, way } of owed) {
      expect({ player, way, row: saveOf.get(player) ?? null }).toMatchObject({ row: { sha256: hex(save), state: "done", last_error: null } });
    }
    expect(saves.filter((row) => row.state !== "done")).toEqual([]);

    const archives = await store.archives();
    expect(archives.map((row) => row.save_id).sort((a, b) => a - b)).toEqual(saves.map((row) => row.id).sort((a, b) => a - b));
    const keys = await deployment.archiveFiles(server);
    const folders = new Set(keys.map((key) => key.slice(0, key.lastIndexOf("/"))));
    expect([...folders].sort()).toEqual(archives.map((row) => row.rel_path).sort());
    for (const archive of archives) {
      const files = archive.files;
      expect(files).toContain("summary.json");
      const held = keys.filter((key) => key.startsWith(`${archive.rel_path}/`)).map((key) => key.slice(archive.rel_path.length + 1));
      expect({ folder: archive.rel_path, missing: [...files, "save.bin"].filter((file) => !held.includes(file)) }).toEqual({ folder: archive.rel_path, missing: [] });
      const summary = (await bucket.file(`${PREFIX}/archive/${archive.rel_path}/summary.json`).json()) as { playerId: string; sites: { siteId: number }[] };
      expect(summary.playerId).toBe(archive.player_id);
      expect(summary.sites.map((site) => `site_${site.siteId}.png`).filter((file) => !held.includes(file))).toEqual([]);
      const bytes = new Uint8Array(await bucket.file(`${PREFIX}/archive/${archive.rel_path}/save.bin`).arrayBuffer());
      expect(hex(bytes)).toBe(saveOf.get(archive.player_id)!.sha256);
    }

    // Pushes: each (save, route) once; another copy only from the at-least-once window, never more than its claims.
    const deliveries = await store.allPushes();
    expect(deliveries.filter((row) => row.state !== "sent")).toEqual([]);
    const all = pushesByPlayer();
    expect(all.filter((push) => !saveOf.has(push.player))).toEqual([]);
    let windowExtras = 0;
    const violations: string[] = [];
    for (const save of saves) {
      for (const route of ["webhook", "onebot"] as const) {
        const mine = all.filter((push) => push.player === save.player_id && push.route === route).sort((a, b) => a.at - b.at);
        const attempts = deliveries.find((row) => row.save_id === save.id && row.channel === route)?.attempts ?? 0;
        if (mine.length === 0) violations.push(`save ${save.id} ${route}: never pushed`);
        if (mine.length > attempts) violations.push(`save ${save.id} ${route}: ${mine.length} pushes for ${attempts} claimed attempts`);
        for (const earlier of mine.slice(0, -1)) {
          if (inWindow(earlier, save.id)) windowExtras++;
          else violations.push(`save ${save.id} ${route}: pushed again though no process died uncommitted just after the first copy`);
        }
      }
    }
    expect(violations).toEqual([]);

    // A stage that ends on its job's second claim or later: here, a job taken over from a killed process.
    const outputs = instances.map((instance) => instance.server.output());
    const takeovers = outputs.reduce((sum, output) => sum + (output.match(/\[JOB\] stage finished .*attempt=([2-9]|\d\d)\b/g)?.length ?? 0), 0);
    const leasesLost = outputs.reduce((sum, output) => sum + (output.match(/lease lost/g)?.length ?? 0), 0);
    const reports = owed.filter((save) => save.way === "report").length;
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(
      `hub-crash-random seed=${SEED}: ${SAVES} saves sent (${reports} of the ${owed.length} answered 200 as reports, ${cut} cut by kills), ` +
        `${kills} kills over ${PROCESSES} processes (${aimedKills} mid-notify), ${takeovers} stages run by a process that took the job over, ${leasesLost} leases lost by a live process, ${saves.length} saves archived, ${all.length} pushes (${windowExtras} in the at-least-once window), ${seconds} s`,
    );
    // The kills hit running jobs, and live processes took them over once their leases expired (half the kills
    // land mid-notify; a process restarting after a lease expired may reclaim a job too, but not all of them).
    expect(takeovers).toBeGreaterThan(0);
  }, 120_000);
});
