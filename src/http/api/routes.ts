/**
 * The data API: players' latest saves as JSON for chat bots and tools. Private by default.
 *   GET /api/status                                  {"status":"ok"}
 *   GET /api/{region}/user/{uid}/mysekai?mode&filter  lunabot's `mysekai_api_url` (Bearer API token)
 *   GET|POST /api/{region}/mysekai/upload_times,
 *   PUT /api/{region}/mysekai/update_msr_sub          lunabot's poll (bot-routes.ts)
 *   GET /public/{server}/mysekai/{uid}?key=a,b        Haruki-style, no token, only players who opted in
 * and the latest birthday party delivery that refreshed the harvest maps (src/capture/data-types.ts), by the same
 * rules: GET /api/{region}/user/{uid}/mysekai_birthday_party, GET /public/{server}/mysekai_birthday_party/{uid}.
 * After such a refresh, `…/mysekai` answers the full save with its harvest maps in place, ETag and upload_time its.
 */
import { Hono, type Context } from "hono";
import type { DataType } from "../../capture/data-types.ts";
import { isRegion } from "../../capture/regions.ts";
import { logInfo, logWarn } from "../../log.ts";
import { peerOf } from "../peer.ts";
import { botPollRoutes } from "./bot-routes.ts";
import type { RateWindows } from "../../store/ports/rate-windows.ts";
import { RateLimit } from "./rate-limit.ts";
import { chooseCoding, encode, etagOf, uploadOf, type SaveJson, type SaveJsonSource } from "./save-json.ts";
import type { ApiToken } from "../../store/model/owner.ts";
import type { LatestSave } from "../../store/model/data-api.ts";
import type { DataReads } from "../../store/ports/data-api.ts";

/** `source` in every answer: the short name of this service. */
const SOURCE = "mysekai-ingest";
export const UID = /^\d{1,32}$/;
const MODES = new Set(["latest", "default", "local"]);
const PUBLIC_NOT_FOUND = { status: 404, message: "not found" };
/** The data types a route answers: the save, or a birthday party's delivery (never the one for the other). */
// Grouped: an alternation left bare is read by the router unanchored (…/xmysekai, …/mysekai_birthday_party_admin).
const DATA_TYPE = ":dataType{(?:mysekai_birthday_party|mysekai)}";
const WHAT: Record<DataType, string> = { mysekai: "MySekai data", mysekai_birthday_party: "MySekai birthday party data" };

export interface ApiOptions {
  reads: DataReads;
  saveJson: SaveJsonSource;
  perMinute: number;
  /** Where the per-minute counts live: shared by a hub's processes. */
  rateWindows: RateWindows;
  trustProxy: boolean;
}

export const detail = (c: Context, status: 400 | 401 | 404 | 408 | 413 | 429 | 503, text: unknown) => c.json({ detail: text }, status);

export function apiRoutes({ reads, saveJson, perMinute, rateWindows, trustProxy }: ApiOptions): Hono<{ Variables: { grant: ApiToken } }> {
  const app = new Hono<{ Variables: { grant: ApiToken } }>();
  const byPeer = new RateLimit(perMinute, rateWindows, "peer");
  const byToken = new RateLimit(perMinute, rateWindows, "token");
  const limited = (c: Context, wait: number) => {
    c.header("Retry-After", String(wait));
    return detail(c, 429, "too many requests; try again later");
  };

  app.get("/api/status", (c) => c.json({ status: "ok" }));

  // Every other /api route: a known token, within its rate and its peer's. The token is never logged.
  app.use("/api/:region/*", async (c, next) => {
    const wait = await byPeer.take(peerOf(c, trustProxy));
    if (wait > 0) return limited(c, wait);
    const token = /^Bearer\s+(\S{1,200})$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const grant = token === undefined ? null : await reads.grant(token);
    if (grant === null) {
      logWarn("API", "refused: missing or wrong API token", { path: c.req.path.slice(0, 80) });
      return detail(c, 401, "missing or wrong API token");
    }
    const tokenWait = await byToken.take(grant.name);
    if (tokenWait > 0) return limited(c, tokenWait);
    c.set("grant", grant);
    await next();
  });

  app.get(`/api/:region/user/:uid/${DATA_TYPE}`, async (c) => {
    const { region, uid } = c.req.param();
    const dataType = c.req.param("dataType") as DataType;
    const mode = c.req.query("mode") ?? "latest";
    if (!isRegion(region)) return detail(c, 404, `unknown region ${region.slice(0, 8)}`);
    if (!UID.test(uid)) return detail(c, 400, "the user id must be digits");
    if (mode === "haruki") return detail(c, 404, { haruki_err: "not available on this server" });
    if (!MODES.has(mode)) return detail(c, 400, "mode must be latest, default, local or haruki");
    const grant = c.get("grant");
    const save = grant.players === null || grant.players.includes(uid) ? await reads.latest(region, uid, dataType) : null;
    const json = save === null ? null : await saveJson.get(save);
    logInfo("API", `${dataType} read`, { token: grant.name, region, player: uid, found: json !== null });
    if (save === null || json === null) return detail(c, 404, { local_err: `no ${WHAT[dataType]} of ${uid} in ${region} on this server` });
    const filter = c.req.query("filter")?.split(",").map((key) => key.trim()).filter((key) => key !== "") ?? null;
    return answer(c, save, json, filter, { upload_time: uploadOf(save).receivedAt, source: SOURCE, local_source: uploadOf(save).source });
  });

  app.route("/", botPollRoutes(reads, trustProxy));

  // Haruki-style public reads: every failure is the same 404, so ids cannot be enumerated.
  app.get(`/public/:server/${DATA_TYPE}/:uid`, async (c) => {
    const { server, uid } = c.req.param();
    const dataType = c.req.param("dataType") as DataType;
    const wait = await byPeer.take(peerOf(c, trustProxy));
    if (wait > 0) return limited(c, wait);
    const keys = c.req.query("key")?.split(",").map((key) => key.trim()) ?? null;
    const notFound = () => c.json(PUBLIC_NOT_FOUND, 404);
    if (!isRegion(server) || !UID.test(uid) || keys?.some((key) => key === "" || key.includes(".") || key.includes("$"))) return notFound();
    if (!(await reads.isPublic(uid))) return notFound();
    const save = await reads.latest(server, uid, dataType);
    const json = save === null ? null : await saveJson.get(save);
    if (save === null || json === null) return notFound();
    const extra = { upload_time: Math.floor(uploadOf(save).receivedAt / 1000), source: SOURCE, local_source: uploadOf(save).source };
    if (keys === null) return answer(c, save, json, null, extra);
    const members = await json.members();
    const missing = keys.some((key) => !members.has(key) && !Object.hasOwn(extra, key));
    if (missing) return notFound();
    if (keys.length > 1) return answer(c, save, json, keys.filter((key) => members.has(key)), Object.fromEntries(Object.entries(extra).filter(([key]) => keys.includes(key))));
    // One key: its bare value.
    const key = keys[0]!;
    const value = members.get(key)?.value ?? Buffer.from(JSON.stringify(extra[key as keyof typeof extra]));
    return c.body(value as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/json" });
  });

  return app;
}

/**
 * The JSON answer, compressed as asked, with the save's sha256 as its ETag. The whole save in gzip is the stored
 * file with the added fields appended: nothing of the save is compressed again.
 */
async function answer(c: Context, save: LatestSave, json: SaveJson, keys: string[] | null, extra: Record<string, unknown>): Promise<Response> {
  const etag = `"${etagOf(save)}"`;
  c.header("ETag", etag);
  c.header("Vary", "Accept-Encoding");
  if (c.req.header("if-none-match")?.split(",").some((tag) => tag.trim() === etag)) return c.body(null, 304);
  const coding = chooseCoding(c.req.header("accept-encoding"));
  const body = keys === null && coding === "gzip" ? json.gzipWith(extra) : encode(await json.withFields(keys, extra), coding);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (coding !== "identity") headers["Content-Encoding"] = coding;
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}
