/**
 * One push per refresh through the real server: a revisit (same drops, other bytes and harvest states) is
 * archived but not pushed, new drops are pushed, two saves of one refresh processed at once push once, and
 * NOTIFY_REPEAT=1 pushes every save. The push names music records by song title.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SummaryJson } from "../../src/maps/index.ts";
import { makeSampleMySekaiSave, SAMPLE_MUSIC_RECORD_DROP_ID } from "../../src/samples/index.ts";
import type { MySekaiSave } from "../../src/save/index.ts";
import { archiveFilesIn, deploymentHooks, deployments, readArchiveFile } from "../helpers/deployments.ts";
import { reads } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, PLAYER_ID, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";

const UNKNOWN_RECORD = 999_999;
let api: RecordingServer;
const { pair, env: keyEnv } = testKeys();

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
});
afterAll(async () => {
  await api.stop();
});

interface Service {
  server: RunningServer;
  /** The pushes this server sent (its webhook has a path of its own). */
  pushes: () => { json: unknown }[];
}

/** A sample refresh with a music record the title data does not know next to the sample's known one (352). */
function refresh(seed: number): MySekaiSave {
  const typed = makeSampleMySekaiSave({ seed });
  const site = typed.sites.find((s) => s.siteId === 7)!;
  site.drops.push({ resourceType: "mysekai_music_record", resourceId: UNKNOWN_RECORD, positionX: 1.5, positionZ: -2.5, quantity: 1, seq: 999, status: "before_drop", harvested: false, spawnGroup: null });
  return typed;
}

/** The same refresh seen again later: another server time, and the player harvested some drops since. */
function revisit(typed: MySekaiSave, later: number): MySekaiSave {
  return {
    ...typed,
    now: (typed.now ?? 0) + later,
    sites: typed.sites.map((site) => ({
      ...site,
      drops: site.drops.map((d, i) => (i % 3 === 0 ? { ...d, status: "after_drop", harvested: true } : d)),
    })),
  };
}

interface WebhookBody {
  rareText: string;
  summary: SummaryJson;
}

for (const deployment of deployments("repeat")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    const { settings, servers } = deploymentHooks(deployment);

    async function start(env: Record<string, string> = {}, dataDir?: string): Promise<Service> {
      const hook = `/hook/${crypto.randomUUID()}`;
      const server = await startServer({ env: { ...settings, ...keyEnv, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${api.url}${hook}`, ...env }, dataDir });
      servers.push(server);
      return { server, pushes: () => api.requests.filter((r) => r.path === hook) };
    }

    async function upload(server: RunningServer, typed: MySekaiSave): Promise<number> {
      const uploadId = crypto.randomUUID();
      expect((await uploadSave(server.url, encryptRaw(pair, rawSave(typed)), uploadId)).status).toBe(200);
      return (await reads(server, deployment).saveOfUpload(uploadId))!;
    }

    const done = (server: RunningServer, ...saveIds: number[]) =>
      eventually(
        async () => (await reads(server, deployment).jobs()).filter((job) => saveIds.includes(job.save_id!) && job.state === "done").length === saveIds.length,
        30_000,
        "jobs done",
      );
    const relPathOf = async (server: RunningServer, saveId: number) => (await reads(server, deployment).archive(saveId))!.rel_path;
    const summaryOf = async (server: RunningServer, saveId: number): Promise<{ repeatOf: number | null }> =>
      JSON.parse((await readArchiveFile(settings, server, await relPathOf(server, saveId), "summary.json")).toString("utf8"));

    describe("one push per refresh", () => {
      test("a revisit is archived, not pushed; new drops are pushed; records are named by title", async () => {
        const { server, pushes } = await start();
        const first = refresh(101);
        const a = await upload(server, first);
        await done(server, a);
        expect(pushes()).toHaveLength(1);
        const body = pushes()[0]!.json as WebhookBody;
        expect(body.rareText).toContain(`● 唱片「像神一样呐」 NEW ×1`);
        expect(body.rareText).toContain(`● 唱片 #${UNKNOWN_RECORD} NEW ×1`);
        expect(body.summary.musicRecords).toContainEqual({ id: SAMPLE_MUSIC_RECORD_DROP_ID, title: "像神一样呐", status: "new", total: 1, sites: [7] });
        expect(body.summary.musicRecords).toContainEqual({ id: UNKNOWN_RECORD, title: null, status: "new", total: 1, sites: [7] });

        const again = await upload(server, revisit(first, 600_000));
        await done(server, again);
        expect(pushes()).toHaveLength(1);
        expect(await archiveFilesIn(deployment, server, await relPathOf(server, again))).toContain("site_7.png");
        expect((await summaryOf(server, again)).repeatOf).toBe(a);
        expect((await summaryOf(server, a)).repeatOf).toBeNull();
        // The job is done when its commit lands; the log line follows the commit, so wait for it.
        await server.waitForOutput(new RegExp(`not pushed: repeat of the last push player=${PLAYER_ID} save=${again} repeatOf=${a}`));

        // The owner's reprocess --notify pushes it all the same.
        expect((await ownerCliWith({ ...keyEnv, ...settings }, server, "reprocess", String(again), "--notify")).code).toBe(0);
        await eventually(() => pushes().length === 2, 20_000, "the forced push");
        await done(server, again);
        expect((await summaryOf(server, again)).repeatOf).toBeNull();

        const next = await upload(server, refresh(202));
        await done(server, next);
        expect(pushes()).toHaveLength(3);
        expect((await summaryOf(server, next)).repeatOf).toBeNull();
      });

      test("two saves of one refresh processed at once (PIPELINE_CONCURRENCY=2): exactly one push", async () => {
        // Both saves are uploaded together and archived (routed to none, so nothing is pushed yet); then, as if the
        // service had stopped with both waiting at notify, a restart routed to the webhook claims both at once.
        const archiving = await start({ PIPELINE_CONCURRENCY: "2", NOTIFY_DEFAULT: "none" });
        const first = refresh(303);
        const ids = await Promise.all([upload(archiving.server, first), upload(archiving.server, revisit(first, 60_000))]);
        await done(archiving.server, ...ids);
        await archiving.server.stop();
        await writes(archiving.server, deployment).jobDue(ids, "notify");

        const { server, pushes } = await start({ PIPELINE_CONCURRENCY: "2" }, archiving.server.dataDir);
        await done(server, ...ids);
        expect(pushes()).toHaveLength(1);
        // Whichever decided first was pushed; the other names it.
        const repeats = await Promise.all(ids.map(async (id) => (await summaryOf(server, id)).repeatOf));
        const pushed = ids[repeats.indexOf(null)];
        expect(repeats.filter((r) => r === null)).toHaveLength(1);
        expect(repeats.filter((r) => r !== null)).toEqual([pushed!]);
      });

      test("NOTIFY_REPEAT=1 pushes every save", async () => {
        const { server, pushes } = await start({ NOTIFY_REPEAT: "1" });
        const first = refresh(404);
        const a = await upload(server, first);
        await done(server, a);
        const b = await upload(server, revisit(first, 600_000));
        await done(server, b);
        expect(pushes()).toHaveLength(2);
        expect((await summaryOf(server, b)).repeatOf).toBeNull();
      });
    });
  });
}
