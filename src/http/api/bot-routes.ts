/**
 * lunabot's auto-push poll (`msr_auto_push`), behind the token check of routes.ts:
 *   PUT  /api/{region}/mysekai/update_msr_sub   the subscribed [[uid, mode], …]: validated, kept, {"status":"ok"}
 *   GET  /api/{region}/mysekai/upload_times     with that list as a JSON body (aiohttp's `json=` on a GET): the
 *                                               upload times in its order, in ms, 0 for none or a player the token
 *                                               may not read; POST the same
 *   GET  /api/{region}/mysekai/upload_times     without a body (older lunabots): [{"id", "upload_time"}, …] of the
 *                                               players the token may read, the newest first, at most MAX_LISTED
 *
 * Bun.serve hands a route no body for a GET (it reads and drops it; node:http would hand it over, but serving
 * on node:http costs the upload and report paths about twice the page faults and CPU, measured). lunabot sends
 * the same list with PUT just before each GET, serialized the same way: so a GET whose declared length equals
 * the list its token last PUT for that region, from the same address, in the last SUBSCRIPTION_FRESH_MS, is
 * answered for that list. Any other GET with a body gets a 400 that says to PUT the list first, or POST it.
 * The list is kept in the store (one per token and region, src/db/owner/msr-subscriptions.ts), so on a hub the PUT and
 * the GET may reach different processes. A GET costs two reads whatever its length: its list by the primary keys,
 * and the upload times of all its players in one query. The job queue reads the same rows: a subscribed
 * player's save is processed first.
 */
import { Hono, type Context } from "hono";
import { isRegion } from "../../capture/regions.ts";
import { readCapped } from "../../ingest/capped-body.ts";
import { logInfo } from "../../log.ts";
import { peerOf } from "../peer.ts";
import { detail, UID } from "./routes.ts";
import type { ApiToken, SubscribedPair } from "../../store/model/owner.ts";
import type { DataReads } from "../../store/ports/data-api.ts";

export const MAX_UPLOAD_TIME_PAIRS = 1000;
export const MAX_LISTED = 200;
const MAX_BODY_BYTES = 128 * 1024;
/** A list of at most 128 KiB comes whole within 10 s, or not at all. */
const LIST_PACE = { deadlineMs: 10_000, windowMs: 5_000, minBytesPerSecond: 1 };
/** lunabot PUTs, then GETs at once, every few seconds: an older list may no longer be the one its GET carries. */
export const SUBSCRIPTION_FRESH_MS = 60_000;
const POLL_MODES = new Set(["latest", "default", "local", "haruki"]);
const LIST_SHAPE = `the body must be JSON: a list of at most ${MAX_UPLOAD_TIME_PAIRS} [uid, mode] pairs, uid of digits, mode latest, default, local or haruki`;

type Pair = SubscribedPair;
type Parsed = { pairs: Pair[]; bytes: number } | { refusal: Response };

export function botPollRoutes(reads: DataReads, trustProxy: boolean): Hono<{ Variables: { grant: ApiToken } }> {
  const app = new Hono<{ Variables: { grant: ApiToken } }>();
  const mayRead = (grant: ApiToken, uid: string) => grant.players === null || grant.players.includes(uid);

  app.on(["GET", "POST"], "/api/:region/mysekai/upload_times", async (c) => {
    const region = c.req.param("region");
    if (!isRegion(region)) return detail(c, 404, `unknown region ${region.slice(0, 8)}`);
    const grant = c.get("grant");
    if (c.req.method === "GET" && !hasBody(c)) return c.json(await listRecent(reads, grant, region));
    const parsed = c.req.method === "GET" ? await subscribedList(c, reads, region, peerOf(c, trustProxy)) : await readPairs(c);
    if ("refusal" in parsed) return parsed.refusal;
    // haruki mode names another service's copy: this server has none.
    const asked = parsed.pairs.filter(({ uid, mode }) => mode !== "haruki" && mayRead(grant, uid)).map(({ uid }) => uid);
    const times = await latestTimes(reads, region, asked);
    return c.json(parsed.pairs.map(({ uid, mode }) => (mode !== "haruki" && mayRead(grant, uid) ? (times.get(uid) ?? 0) : 0)));
  });

  app.put("/api/:region/mysekai/update_msr_sub", async (c) => {
    const region = c.req.param("region");
    if (!isRegion(region)) return detail(c, 404, `unknown region ${region.slice(0, 8)}`);
    const parsed = await readPairs(c);
    if ("refusal" in parsed) return parsed.refusal;
    // Only players the token may read get their saves first: a token limited to some players bumps no others.
    const grant = c.get("grant");
    const pairs = parsed.pairs.map((pair) => (mayRead(grant, pair.uid) ? pair : { ...pair, mode: "haruki" as const }));
    await reads.subscribe(grant.name, region, { pairs, peer: peerOf(c, trustProxy), bytes: parsed.bytes }, Date.now());
    logInfo("API", "push subscriptions", { token: c.get("grant").name, region, players: parsed.pairs.length });
    return c.json({ status: "ok" });
  });

  return app;
}

/** The older poll's list: every player the token may read with a save in `region`, the newest first. */
async function listRecent(reads: DataReads, grant: ApiToken, region: string): Promise<{ id: string; upload_time: number }[]> {
  const uploads =
    grant.players === null
      ? await reads.recentUploads(region, MAX_LISTED)
      : (await reads.uploadTimes(region, grant.players.slice(0, MAX_UPLOAD_TIME_PAIRS))).sort((a, b) => b.receivedAt - a.receivedAt || a.playerId.localeCompare(b.playerId)).slice(0, MAX_LISTED);
  return uploads.map((upload) => ({ id: upload.playerId, upload_time: upload.receivedAt }));
}

/** Each asked player's latest upload time, in one read (a list names a player once or many times). */
async function latestTimes(reads: DataReads, region: string, playerIds: string[]): Promise<Map<string, number>> {
  const uploads = await reads.uploadTimes(region, [...new Set(playerIds)]);
  return new Map(uploads.map((upload) => [upload.playerId, upload.receivedAt]));
}

function hasBody(c: Context): boolean {
  return Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("transfer-encoding") !== undefined;
}

/** A GET's list: the one its token last PUT for `region` from the same address, when the GET declares a body of that very length. */
async function subscribedList(c: Context, reads: DataReads, region: string, peer: string): Promise<Parsed> {
  const declared = Number(c.req.header("content-length") ?? -1);
  const subscription = await reads.subscription(c.get("grant").name, region);
  if (subscription !== null && subscription.peer === peer && subscription.bytes === declared && Date.now() - subscription.at <= SUBSCRIPTION_FRESH_MS) return subscription;
  return { refusal: detail(c, 400, "this server cannot read the body of a GET: PUT the same [uid, mode] list to update_msr_sub first (lunabot's update_msr_sub_api_url), or POST it here") };
}

async function readPairs(c: Context): Promise<Parsed> {
  const body = await readCapped(c.req.raw.body, MAX_BODY_BYTES, "the [uid, mode] list", { pace: LIST_PACE });
  if (!body.ok) return { refusal: detail(c, body.refusal.status, body.refusal.reason) };
  if (body.bytes.length === 0) return { pairs: [], bytes: 0 };
  let list: unknown;
  try {
    // 19-digit ids sent as JSON numbers keep every digit: each number is taken as written.
    list = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body.bytes), (_key, value, context?: { source?: string }) => (typeof value === "number" ? (context?.source ?? String(value)) : value));
  } catch {
    return { refusal: detail(c, 400, LIST_SHAPE) };
  }
  if (!Array.isArray(list) || list.length > MAX_UPLOAD_TIME_PAIRS) return { refusal: detail(c, 400, LIST_SHAPE) };
  const pairs: Pair[] = [];
  for (const pair of list) {
    const [uid, mode] = Array.isArray(pair) ? pair : [];
    if (typeof uid !== "string" || !UID.test(uid) || typeof mode !== "string" || !POLL_MODES.has(mode) || (pair as unknown[]).length !== 2) return { refusal: detail(c, 400, LIST_SHAPE) };
    pairs.push({ uid, mode });
  }
  return { pairs, bytes: body.bytes.length };
}
