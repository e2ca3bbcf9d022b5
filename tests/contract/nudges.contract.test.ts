/**
 * Missed-refresh nudges on an injected clock, on both stores (SQLite and a hub's PostgreSQL) with a recording
 * webhook: a JP player and an EN player across the US daylight-saving change (8 March 2026), checked every 5 minutes
 * by two processes (two handles, or two connections) and a restarted third: each missed refresh nudges once, at
 * refresh + 3 h, never for a refresh a full save followed; a partial refresh nudges at once with the fix, and its
 * refresh never again.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { Region } from "../../src/capture/regions.ts";
import { loadConfig } from "../../src/config/index.ts";
import { parseRoutingFiles, routeFor } from "../../src/notify/routing.ts";
import { nudgePartial, runMissedNudges, type NudgeDeps } from "../../src/nudge/run.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";

const JP = "1000000000000000011";
const EN = "1000000000000000012";
const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);
let api: RecordingServer;
beforeAll(async () => void (api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } })));
afterAll(() => api.stop());

const routeOfDefault = (deps: NudgeDeps) => routeFor(deps.routing, "0", deps.config.notify.defaultRoute);

describeEachStore("nudges", (s) => {
  beforeEach(() => api.reset());

  /** A process of the service: its own stores on the database, pushing to the recording server's `hook`. */
  async function process(hook: string): Promise<{ deps: NudgeDeps }> {
    const dir = s.config.dataDir;
    const config = loadConfig({ DATA_DIR: dir, CONFIG_DIR: join(dir, "config"), NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${api.url}${hook}`, PUBLIC_BASE_URL: "https://maps.example" });
    return { deps: { nudges: (await s.another()).nudges, links: { linkedPlayer: async () => null }, routing: parseRoutingFiles(null, null), config, secrets: [] } };
  }
  /** A full save as an upload leaves it: the save and its job, still being drawn. */
  const addSave = (playerId: string, region: Region, receivedAt: number) => s.rows.save({ playerId, region, at: receivedAt });
  /** A player with nudges on (3 h) and a full save on `region`, both at the start of 1 June 2026. */
  async function optedIn(deps: NudgeDeps, playerId: string, region: Region) {
    await deps.nudges.setNudge(playerId, 3, at("2026-06-01T00:00:00Z"));
    await addSave(playerId, region, at("2026-06-01T00:00:00Z"));
  }

  test("once per missed refresh at refresh + 3 h, JP and EN across a daylight-saving change, by whichever process checks first", async () => {
    const hook = "/missed";
    const [a, b] = [await process(hook), await process(hook)];
    const since = at("2026-03-07T00:00:00Z");
    await addSave(EN, "en", since - 24 * 60 * MIN);
    await a.deps.nudges.setNudge(JP, 3, since);
    await a.deps.nudges.setNudge(EN, 3, since);
    const fired: string[] = [];
    let jpSaved = false;
    for (let now = since; now <= at("2026-03-09T06:00:00Z"); now += 5 * MIN) {
      // JP's full save arrives half an hour after its 05:00 refresh of 8 March (20:00 UTC on the 7th).
      if (!jpSaved && now >= at("2026-03-07T20:30:00Z")) jpSaved = (await addSave(JP, "jp", now), true);
      const before = api.requestsTo(hook).length;
      const sent = (await runMissedNudges((now / MIN) % 2 === 0 ? a.deps : b.deps, now)) + (await runMissedNudges((now / MIN) % 2 === 0 ? b.deps : a.deps, now));
      const pushed = api.requestsTo(hook).slice(before).map((r) => (r.json as { playerId: string }).playerId);
      expect(pushed.length).toBe(sent);
      for (const player of pushed) fired.push(`${player === JP ? "JP" : "EN"} ${new Date(now).toISOString()}`);
    }
    expect(fired.sort()).toEqual(
      [
        // JP (UTC+9): 17:00 on the 7th = 08:00Z; 05:00 on the 8th was followed by a save; 17:00 on the 8th = 08:00Z; 05:00 on the 9th = 20:00Z.
        "JP 2026-03-07T11:00:00.000Z",
        "JP 2026-03-08T11:00:00.000Z",
        "JP 2026-03-08T23:00:00.000Z",
        // EN: 17:00 PST on the 6th (01:00Z, after the opt-in), 05:00 and 17:00 PST on the 7th (13:00Z, 01:00Z), then PDT from the 8th (12:00Z, 00:00Z).
        "EN 2026-03-07T04:00:00.000Z",
        "EN 2026-03-07T16:00:00.000Z",
        "EN 2026-03-08T04:00:00.000Z",
        "EN 2026-03-08T15:00:00.000Z",
        "EN 2026-03-09T03:00:00.000Z",
      ].sort(),
    );
    // A restarted process checking the same hours again sends nothing.
    const restarted = await process(hook);
    for (const now of [at("2026-03-08T15:00:00Z"), at("2026-03-09T03:30:00Z")]) expect(await runMissedNudges(restarted.deps, now)).toBe(0);
    const body = api.requestsTo(hook)[0]!.json as { title: string; rareText: string };
    expect(body.title).toBe("MySekai: no refresh captured");
    expect(body.rareText).toContain("Capture setup: ask the owner for your personal link, or open https://maps.example/setup");
  });

  test("a partial refresh nudges at once with the fix, once; the missed nudge of that refresh is not sent after it", async () => {
    const hook = "/partial";
    const { deps } = await process(hook);
    const player = "1000000000000000013";
    await optedIn(deps, player, "jp");
    // 20:00Z is 05:00 in Tokyo on 2 June.
    expect(await nudgePartial(deps, player, at("2026-06-01T20:10:00Z"), at("2026-06-01T20:10:00Z") + MIN)).toBe(true);
    expect(await nudgePartial(deps, player, at("2026-06-01T20:40:00Z"), at("2026-06-01T20:40:00Z") + MIN)).toBe(false);
    const pushes = api.requestsTo(hook).map((r) => r.json as { title: string; rareText: string });
    // A push follows the player's server's language, like their maps: JP's in Japanese.
    expect(pushes.map((p) => p.title)).toEqual(["MySekai：部分更新を受け取りました"]);
    expect(pushes[0]!.rareText).toContain("タイトル画面からマイセカイを開き直してください");
    expect(await runMissedNudges(deps, at("2026-06-01T23:00:00Z"))).toBe(0);
    const enPlayer = "1000000000000000014";
    await optedIn(deps, enPlayer, "en");
    expect(await nudgePartial(deps, enPlayer, at("2026-06-01T20:10:00Z"), at("2026-06-01T20:10:00Z") + MIN)).toBe(true);
    const enPush = api.requestsTo(hook).at(-1)!.json as { title: string; rareText: string };
    expect(enPush.title).toBe("MySekai: partial refresh captured");
    expect(enPush.rareText).toContain("open MySekai again from the title screen");
    expect(await nudgePartial(deps, "1000000000000000099", at("2026-06-01T20:10:00Z"), at("2026-06-01T20:10:00Z") + MIN)).toBe(false);
  });

  test("a reprocessed old partial save nudges nobody now; the personal link goes to no shared route nor a webhook", async () => {
    const hook = "/privacy";
    const { deps } = await process(hook);
    const player = "1000000000000000015";
    await optedIn(deps, player, "jp");
    const received = at("2026-06-01T20:10:00Z");
    // Reprocessed a day later: that refresh is long past.
    expect(await nudgePartial(deps, player, received, received + 24 * 60 * MIN)).toBe(false);
    const linked = { ...deps, links: { linkedPlayer: async () => ({ playerId: player, token: "t".repeat(32), name: null }) } } as unknown as NudgeDeps;
    // On the default route (often a shared group) the personal link, which opens the player's settings, stays out.
    expect(await nudgePartial(linked, player, received, received + MIN)).toBe(true);
    const shared = api.requestsTo(hook).at(-1)!.json as { rareText: string };
    expect(shared.rareText).toContain("https://maps.example/setup");
    expect(shared.rareText).not.toContain("/p/");
    // A route of the player's own (which the default route, here none, does not share) that is a webhook, which may
    // reach many, still gets no link: only a one-person chat does (tests/server/nudge-links.test.ts).
    const config = { ...linked.config, notify: { ...linked.config.notify, defaultRoute: "none" } };
    const own = { ...linked, config, routing: { ...linked.routing, players: new Map([[player, linked.routing.players.get(player) ?? routeOfDefault(linked)]]) } } as NudgeDeps;
    const next = at("2026-06-02T08:10:00Z");
    expect(await nudgePartial(own, player, next, next + MIN)).toBe(true);
    expect((api.requestsTo(hook).at(-1)!.json as { rareText: string }).rareText).not.toContain("/p/");
  });
});
