/**
 * Hostile requests to the owner's pages (`/`, `/players/<id>`, `/login`, `/logout`, `/status/retry`, `/metrics`), `/healthz`,
 * capture setup (`/setup`, `/setup/rotate`, `/setup/<token>/…`), player links (`/p/<token>`, its uploads) and
 * `/maps/<token>/<file>`, one row each, against two real servers: one with ADMIN_TOKEN, one without (the
 * owner is a loopback client). For every row: its exact status (and reason where the row says), no 5xx, the
 * process stays up, a refused answer is short plain text (or the login page), and no answer the row does not
 * grant carries a secret (ADMIN_TOKEN, UPLOAD_TOKEN, the setup token, a player link or map token, a player id)
 * or opens a session. Afterwards the setup tokens are unchanged and the owner still logs in and sees the page.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { linkTokenOf, setupTokenOf } from "../helpers/link-tokens.ts";
import { isAlive } from "../helpers/proc.ts";
import { reads } from "../helpers/store-reads.ts";
import { rawRequest, type HeaderValue, type RawAnswer, type RawRequest } from "../helpers/raw-http.ts";
import { encryptedSave, PLAYER_ID, saveUrl, testKeys } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";

const ADMIN_TOKEN = "owner-secret-7f3a9c1e5b2d4a6f";
const UPLOAD_TOKEN = "upload-secret-2b8e4d6f1a3c5e7a";
const OTHER_PLAYER = "9876543210987654321";
const LOGIN_FLOOD = 200;
const KB10 = "k".repeat(10 * 1024);
const MIB8 = 8 * 1024 * 1024;

type Headers = [string, HeaderValue][];
type Target = "admin" | "open";
interface Expectation {
  /** null: no answer (Bun's HTTP parser dropped the connection). */
  status: number | null;
  reason?: string;
  /** The answer is an HTML page (the login form), not plain text. */
  html?: boolean;
  /** The owner (or a player's own link) is let in: the answer may show what it holds. */
  granted?: boolean;
  /** Bun's HTTP parser answers before the app sees the request (its 505 for a NUL in the request line). */
  parser?: boolean;
}
type Case = [name: string, on: Target, build: () => RawRequest | RawRequest[], expected: number | Expectation];

const granted = (status = 200): Expectation => ({ status, granted: true });
const loginPage: Expectation = { status: 401, html: true };
const refused = (status: number, reason: string): Expectation => ({ status, reason });
const CROSS_SITE = refused(403, "cross-site request refused");
const NO_OWNER = refused(401, "owner access required");
const LOOPBACK_ONLY = refused(403, "the owner's pages answer loopback clients only (set ADMIN_TOKEN to open them to others)");
const NOT_FOUND = refused(404, "not found");
const BAD_HOST = refused(400, "bad Host header");
const TOO_MANY = refused(429, "too many wrong tokens; try again later");
/** The flood's peer: every other row comes from a peer of its own (the login throttle counts per peer). */
const FLOOD_PEER = "127.0.2.1";

// ---- what the servers hold (filled in beforeAll) ----------------------------------------------------------

let admin: RunningServer;
let open: RunningServer;
const servers = () => ({ admin, open });
/** Per server: its setup token and PLAYER_ID's link token; the admin server also has an archive of PLAYER_ID. */
const held = { admin: { setup: "", player: "" }, open: { setup: "", player: "" } };
let archive = { token: "", file: "" };
const setupOf = (on: Target) => held[on].setup;
const playerOf = (on: Target) => held[on].player;

// ---- request builders --------------------------------------------------------------------------------------

const utf8 = (text: string) => new TextEncoder().encode(text);
/** A string whose latin-1 bytes are `text`'s UTF-8 (raw non-ASCII bytes in a request line or header). */
const rawUtf8 = (text: string) => Buffer.from(text, "utf8").toString("latin1");
const bearer = (token = ADMIN_TOKEN): Headers => [["Authorization", `Bearer ${token}`]];
const basic = (credentials: string): Headers => [["Authorization", `Basic ${Buffer.from(credentials).toString("base64")}`]];
const cookie = (value: HeaderValue): Headers => [["Cookie", value]];
const SAME_ORIGIN: Headers = [["Sec-Fetch-Site", "same-origin"]];
const HTML: Headers = [["Accept", "text/html"]];
const FORM: Headers = [["Content-Type", "application/x-www-form-urlencoded"]];

const get = (path: string | (() => string), headers: Headers = [], more: Partial<RawRequest> = {}) => () =>
  ({ method: "GET", path: typeof path === "string" ? path : path(), headers, ...more }) as RawRequest;
const send = (method: string, path: string | (() => string), headers: Headers = [], body?: Uint8Array, more: Partial<RawRequest> = {}) => () =>
  ({ method, path: typeof path === "string" ? path : path(), headers, body, ...more }) as RawRequest;
/** A form POST (urlencoded unless the headers say otherwise). */
const postForm = (path: string, body: string | Uint8Array | (() => string), headers: Headers = [], more: Partial<RawRequest> = {}) => () =>
  ({ method: "POST", path, headers: [...FORM, ...headers], body: typeof body === "function" ? utf8(body()) : typeof body === "string" ? utf8(body) : body, ...more }) as RawRequest;
const hugeForm = (name: string) => utf8(`${name}=${"9".repeat(MIB8)}`);
/** A player-link upload chunk for `player`'s game URL. */
const linkUpload = (token: () => string, player = PLAYER_ID, extra: Headers = []) => () =>
  ({
    method: "POST",
    path: `/p/${token()}/uploadSaveData`,
    headers: [["X-Upload-Id", `owner-routes-${player}`], ["X-Chunk-Index", "0"], ["X-Total-Chunks", "1"], ["X-Original-Url", saveUrl(player)], ...extra],
    body: new Uint8Array(64).fill(0x5a),
  }) as RawRequest;
const setupFile = (token: () => string, rest = "/jp/surge.sgmodule") => () => `/setup/${token()}${rest}`;
const mapFile = (token: () => string, file: () => string) => () => `/maps/${token()}/${file()}`;
const flipCase = (text: string) => text.replace(/[a-z]/gi, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()));

// ---- the rows -----------------------------------------------------------------------------------------------

const methodCases: Case[] = [
  ["PUT /", "admin", send("PUT", "/", bearer()), NOT_FOUND],
  ["DELETE /setup", "admin", send("DELETE", "/setup", bearer()), NOT_FOUND],
  ["PATCH /login", "admin", send("PATCH", "/login", SAME_ORIGIN), NOT_FOUND],
  ["GET /status/retry", "admin", get("/status/retry", bearer()), NOT_FOUND],
  ["GET /logout", "admin", get("/logout", bearer()), NOT_FOUND],
  ["GET /setup/rotate", "admin", get("/setup/rotate", bearer()), NOT_FOUND],
  ["POST /metrics without a token", "admin", send("POST", "/metrics"), CROSS_SITE],
  ["POST /metrics with the owner's bearer", "admin", send("POST", "/metrics", bearer()), NOT_FOUND],
  ["POST /healthz", "admin", send("POST", "/healthz"), NOT_FOUND],
  ["HEAD / without a token", "admin", send("HEAD", "/"), 401],
  ["OPTIONS /", "admin", send("OPTIONS", "/"), NOT_FOUND],
  ["TRACE /login", "admin", send("TRACE", "/login"), NOT_FOUND],
  ["made-up method on /setup", "admin", send("BREW", "/setup"), { status: null }],
  ["DELETE /p/<player link>", "admin", send("DELETE", () => `/p/${playerOf("admin")}`), NOT_FOUND],
  ["PUT /maps/<archive>/<file>", "admin", send("PUT", mapFile(() => archive.token, () => archive.file)), NOT_FOUND],
  ["GET /p/<player link>/uploadSaveData", "admin", get(() => `/p/${playerOf("admin")}/uploadSaveData`), NOT_FOUND],
  ["POST /setup/<setup token>/jp/surge.js", "admin", send("POST", setupFile(() => setupOf("admin"), "/jp/surge.js")), NOT_FOUND],
];

const pathCases: Case[] = [
  ["setup file with the setup token (the owner's phone)", "admin", get(setupFile(() => setupOf("admin"))), granted()],
  ["setup file: setup token plus one char", "admin", get(setupFile(() => `${setupOf("admin")}x`)), NOT_FOUND],
  ["setup file: setup token with its case flipped", "admin", get(setupFile(() => flipCase(setupOf("admin")))), NOT_FOUND],
  ["setup file: unknown region", "admin", get(setupFile(() => setupOf("admin"), "/xx/surge.sgmodule")), NOT_FOUND],
  ["setup file: ..%2f in the file name", "admin", get(setupFile(() => setupOf("admin"), "/jp/..%2f..%2fingest.sqlite")), NOT_FOUND],
  ["setup file: ../.. after the token", "admin", get(setupFile(() => setupOf("admin"), "/../../ingest.sqlite")), NOT_FOUND],
  ["setup file: %2e%2e segments", "admin", get("/setup/%2e%2e/%2e%2e/ingest.sqlite"), NOT_FOUND],
  ["setup file: %00 after the file name", "admin", get(setupFile(() => setupOf("admin"), "/jp/surge.sgmodule%00")), NOT_FOUND],
  ["setup file: a raw NUL in the path", "admin", get("/setup/a\u0000b/jp/surge.sgmodule"), { status: 505, parser: true }],
  ["setup file: a 10 KB token", "admin", get(setupFile(() => KB10)), NOT_FOUND],
  ["setup file: ADMIN_TOKEN as the token", "admin", get(setupFile(() => ADMIN_TOKEN)), NOT_FOUND],
  ["setup file: UPLOAD_TOKEN as the token", "admin", get(setupFile(() => UPLOAD_TOKEN)), NOT_FOUND],
  ["setup file: a player link token as the token", "admin", get(setupFile(() => playerOf("admin"))), NOT_FOUND],
  ["setup file: raw UTF-8 in the token", "admin", get(setupFile(() => rawUtf8("üüüüüüüüüüüüüüüüüü"))), NOT_FOUND],
  ["setup file: percent-encoded fullwidth token", "admin", get(setupFile(() => encodeURIComponent("１２３４５６７８９０１２３４５６７８"))), NOT_FOUND],
  ["setup file: no file", "admin", get(setupFile(() => setupOf("admin"), "/jp")), NOT_FOUND],
  ["setup file: an extra segment", "admin", get(setupFile(() => setupOf("admin"), "/jp/surge.sgmodule/x")), NOT_FOUND],
  ["setup file: a 10 KB file name", "admin", get(setupFile(() => setupOf("admin"), `/jp/${KB10}.js`)), NOT_FOUND],
  ["player page with its link (the player)", "admin", get(() => `/p/${playerOf("admin")}`), granted()],
  ["player page: link token plus one char", "admin", get(() => `/p/${playerOf("admin")}x`), NOT_FOUND],
  ["player page: the setup token as a link", "admin", get(() => `/p/${setupOf("admin")}`), NOT_FOUND],
  ["player page: ADMIN_TOKEN as a link", "admin", get(`/p/${ADMIN_TOKEN}`), NOT_FOUND],
  ["player page: a 10 KB link", "admin", get(`/p/${KB10}`), NOT_FOUND],
  ["player page: %2e%2e", "admin", get("/p/%2e%2e"), NO_OWNER],
  ["player page: %00", "admin", get("/p/%00"), NOT_FOUND],
  ["player page: SQL", "admin", get(`/p/${encodeURIComponent("' OR 1=1 --")}`), NOT_FOUND],
  ["player page: emoji", "admin", get(`/p/${encodeURIComponent("😀".repeat(20))}`), NOT_FOUND],
  ["player file: unknown region", "admin", get(() => `/p/${playerOf("admin")}/xx/surge.js`), NOT_FOUND],
  ["player file: -full script", "admin", get(() => `/p/${playerOf("admin")}/jp/surge-full.js`), NOT_FOUND],
  ["player file: ../ out of the link", "admin", get(() => `/p/${playerOf("admin")}/jp/../../setup`), NOT_FOUND],
  ["player upload: junk link", "admin", linkUpload(() => "junk-link-0123456789"), NOT_FOUND],
  ["player upload: 10 KB link", "admin", linkUpload(() => KB10), NOT_FOUND],
  ["player upload: UPLOAD_TOKEN as the link", "admin", linkUpload(() => UPLOAD_TOKEN), NOT_FOUND],
  ["player upload: the setup token as the link", "admin", linkUpload(() => setupOf("admin")), NOT_FOUND],
  ["player upload: another player's id", "admin", linkUpload(() => playerOf("admin"), OTHER_PLAYER), refused(403, "this link uploads for its own player only (X-Original-Url must name that player)")],
  ["player upload: no chunk headers", "admin", () => ({ path: `/p/${playerOf("admin")}/uploadSaveData`, body: utf8("x") }), 400],
  ["maps: the archive's file (a shared map link)", "admin", get(mapFile(() => archive.token, () => archive.file)), granted()],
  ["maps: ..%2f in the file name", "admin", get(mapFile(() => archive.token, () => "..%2f..%2fingest.sqlite")), NOT_FOUND],
  ["maps: %2e%2e%2f in the file name", "admin", get(mapFile(() => archive.token, () => "%2e%2e%2fingest.sqlite")), NOT_FOUND],
  ["maps: %2e%2e segments", "admin", get("/maps/%2e%2e/%2e%2e/ingest.sqlite"), NOT_FOUND],
  ["maps: token with its case flipped", "admin", get(mapFile(() => archive.token.toUpperCase(), () => archive.file)), NOT_FOUND],
  ["maps: a file the archive lacks", "admin", get(mapFile(() => archive.token, () => "site_9999.png")), NOT_FOUND],
  ["maps: the file without .png", "admin", get(mapFile(() => archive.token, () => archive.file.replace(/\.png$/, ""))), NOT_FOUND],
  ["maps: %00 before .png", "admin", get(mapFile(() => archive.token, () => archive.file.replace(/\.png$/, "%00.png"))), NOT_FOUND],
  ["maps: a 10 KB token", "admin", get(`/maps/${KB10}/a.png`), NOT_FOUND],
  ["maps: no file", "admin", get(() => `/maps/${archive.token}`), NOT_FOUND],
  ["a 10 KB path of ../", "admin", get(`/${"../".repeat(3400)}ingest.sqlite`), NOT_FOUND],
  ["a path with raw UTF-8 and RTL override", "admin", get(rawUtf8("/setup/\u202eadmin")), NOT_FOUND],
];

const authCases: Case[] = [
  ["status page, no credentials", "admin", get("/"), NO_OWNER],
  ["status page, no credentials, a browser", "admin", get("/", HTML), loginPage],
  ["status page with the owner's bearer", "admin", get("/", bearer()), granted()],
  ["Bearer of 10 KB", "admin", get("/", bearer(KB10)), NO_OWNER],
  ["Bearer with nothing after it", "admin", get("/", [["Authorization", "Bearer"]]), NO_OWNER],
  ["Bearer ADMIN_TOKEN plus one char", "admin", get("/", bearer(`${ADMIN_TOKEN}x`)), NO_OWNER],
  ["Bearer UPLOAD_TOKEN", "admin", get("/", bearer(UPLOAD_TOKEN)), NO_OWNER],
  ["Bearer with raw UTF-8", "admin", get("/", [["Authorization", utf8("Bearer ✓✓✓")]]), NO_OWNER],
  ["Bearer with a latin-1 byte", "admin", get("/", [["Authorization", new Uint8Array([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xe9])]]), NO_OWNER],
  ["two Authorization headers, wrong then right", "admin", get("/", [...bearer("wrong-0123456789"), ...bearer()]), NO_OWNER],
  ["Basic that is not base64", "admin", get("/", [["Authorization", "Basic !!!not*base64!!!"]]), NO_OWNER],
  ["Basic of 10 KB junk", "admin", get("/", [["Authorization", `Basic ${KB10}`]]), NO_OWNER],
  ["Basic without a colon", "admin", get("/", basic(ADMIN_TOKEN)), NO_OWNER],
  ["Basic with the token as the user name", "admin", get("/", basic(`${ADMIN_TOKEN}:`)), NO_OWNER],
  ["Basic with a wrong password", "admin", get("/", basic("owner:wrong")), NO_OWNER],
  ["Basic with the token as password (the owner)", "admin", get("/", basic(`:${ADMIN_TOKEN}`)), granted()],
  ["Digest scheme", "admin", get("/", [["Authorization", `Digest username="owner", response="${ADMIN_TOKEN}"`]]), NO_OWNER],
  ["junk session cookie", "admin", get("/", cookie("mysk_owner=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")), NO_OWNER],
  ["session cookie of 10 KB", "admin", get("/", cookie(`mysk_owner=${KB10}`)), NO_OWNER],
  ["session cookie with broken %-encoding", "admin", get("/", cookie("mysk_owner=%E0%A4%A")), NO_OWNER],
  ["session cookie __proto__", "admin", get("/", cookie("mysk_owner=__proto__")), NO_OWNER],
  ["ADMIN_TOKEN as the session cookie", "admin", get("/", cookie(`mysk_owner=${ADMIN_TOKEN}`)), NO_OWNER],
  ["500 cookies", "admin", get("/", cookie(Array.from({ length: 500 }, (_, i) => `mysk_owner=junk${i}`).join("; "))), NO_OWNER],
  ["cookie with raw UTF-8", "admin", get("/", cookie(utf8("mysk_owner=😀😀😀"))), NO_OWNER],
  ["X-Forwarded-For 127.0.0.1", "admin", get("/", [["X-Forwarded-For", "127.0.0.1"]]), NO_OWNER],
  ["Forwarded for=127.0.0.1", "admin", get("/", [["Forwarded", "for=127.0.0.1;proto=https"]]), NO_OWNER],
  ["metrics, no credentials", "admin", get("/metrics"), NO_OWNER],
  ["metrics with the owner's bearer (counts only)", "admin", get("/metrics", bearer()), 200],
  ["healthz with junk headers", "admin", get("/healthz", [["Cookie", "mysk_owner=x"], ["Authorization", "Basic ???"], ["X-Forwarded-For", KB10]]), 200],
  ["healthz with a 10 KB query", "admin", get(`/healthz?x=${KB10}`), 200],
  ["setup page, no credentials", "admin", get("/setup"), NO_OWNER],
  ["setup page, no credentials, a browser", "admin", get("/setup", HTML), loginPage],
  ["setup page with a 10 KB query (the owner)", "admin", get(`/setup?region=${KB10}&app=%00%ff`, bearer()), granted()],
  ["login page with a junk cookie", "admin", get("/login", cookie("mysk_owner=junk")), 200],
  ["a player's history, no credentials", "admin", get(`/players/${PLAYER_ID}`), NO_OWNER],
  ["a player's history, no credentials, a browser", "admin", get(`/players/${PLAYER_ID}`, HTML), loginPage],
  ["a player's history, the owner", "admin", get(`/players/${PLAYER_ID}`, bearer()), granted()],
  ["a player's history, the owner, an id that climbs", "admin", get("/players/..%2f..%2fsetup", bearer()), refused(400, "a player id is 1 to 32 digits")],
  ["a player's history, the owner, an id of 10 KB", "admin", get(`/players/${"7".repeat(10 * 1024)}`, bearer()), refused(400, "a player id is 1 to 32 digits")],
];

const formCases: Case[] = [
  ["login without Origin or Sec-Fetch-Site", "admin", postForm("/login", `token=${ADMIN_TOKEN}`), CROSS_SITE],
  ["login, right token, Sec-Fetch-Site cross-site", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Sec-Fetch-Site", "cross-site"]]), CROSS_SITE],
  ["login, right token, Sec-Fetch-Site same-site", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Sec-Fetch-Site", "same-site"]]), CROSS_SITE],
  ["login, right token, Sec-Fetch-Site SAME-ORIGIN", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Sec-Fetch-Site", "SAME-ORIGIN"]]), CROSS_SITE],
  ["login, right token, Origin of another site", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Origin", "https://evil.example"]]), CROSS_SITE],
  ["login, right token, Origin null", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Origin", "null"]]), CROSS_SITE],
  ["login, right token, Origin of 10 KB", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, [["Origin", `http://${KB10}`]]), CROSS_SITE],
  ["login, empty body", "admin", postForm("/login", "", SAME_ORIGIN), loginPage],
  // Bun's outer body wall (server.ts) answers a declared 8 MiB before the route runs.
  ["login, a form of 8 MiB", "admin", postForm("/login", hugeForm("token"), SAME_ORIGIN), 413],
  ["login, a chunked form of 8 MiB", "admin", postForm("/login", hugeForm("token"), SAME_ORIGIN, { framing: "chunked" }), loginPage],
  ["login, a 10 KB token", "admin", postForm("/login", `token=${KB10}`, SAME_ORIGIN), loginPage],
  ["login, the token as JSON", "admin", postForm("/login", JSON.stringify({ token: ADMIN_TOKEN }), [...SAME_ORIGIN, ["Content-Type", "application/json"]]), loginPage],
  ["login, the token as multipart", "admin", postForm("/login", `--b\r\nContent-Disposition: form-data; name="token"\r\n\r\n${ADMIN_TOKEN}\r\n--b--\r\n`, [...SAME_ORIGIN, ["Content-Type", "multipart/form-data; boundary=b"]]), loginPage],
  ["login, broken %-encoding", "admin", postForm("/login", "token=%ZZ%E0%A4%A", SAME_ORIGIN), loginPage],
  ["login, a NUL in the token", "admin", postForm("/login", `token=${ADMIN_TOKEN}%00`, SAME_ORIGIN), loginPage],
  ["login, invalid UTF-8", "admin", postForm("/login", new Uint8Array([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x3d, 0xff, 0xfe, 0xc3]), SAME_ORIGIN), loginPage],
  ["login, a wrong token then the right one", "admin", postForm("/login", `token=wrong&token=${ADMIN_TOKEN}`, SAME_ORIGIN), loginPage],
  ["login, the body cut mid-way", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, SAME_ORIGIN, { cutAfter: 10 }), { status: null }],
  ["login flood: the first 5 wrong tokens", "admin", () => Array.from({ length: 5 }, (_, i) => postForm("/login", `token=wrong-${i}-${ADMIN_TOKEN.slice(0, 6)}`, SAME_ORIGIN, { from: FLOOD_PEER })()), loginPage],
  [`login flood: ${LOGIN_FLOOD} more wrong tokens`, "admin", () => Array.from({ length: LOGIN_FLOOD }, (_, i) => postForm("/login", `token=wrong-${i}-${ADMIN_TOKEN.slice(0, 6)}`, SAME_ORIGIN, { from: FLOOD_PEER })()), TOO_MANY],
  ["login flood: the right token from the flood's peer", "admin", postForm("/login", `token=${ADMIN_TOKEN}`, SAME_ORIGIN, { from: FLOOD_PEER }), TOO_MANY],
  ["retry, no credentials, no Origin", "admin", postForm("/status/retry", "save=1"), CROSS_SITE],
  ["retry, no credentials, same origin", "admin", postForm("/status/retry", "save=1", SAME_ORIGIN), NO_OWNER],
  ["retry, Basic with the token but cross-site", "admin", postForm("/status/retry", "save=1", [...basic(`:${ADMIN_TOKEN}`), ["Origin", "https://evil.example"]]), CROSS_SITE],
  ["retry, junk cookie, same origin", "admin", postForm("/status/retry", "save=1", [...SAME_ORIGIN, ...cookie("mysk_owner=junk")]), NO_OWNER],
  ["retry, a form of 8 MiB (the owner)", "admin", postForm("/status/retry", hugeForm("save"), bearer()), 413],
  ["retry, a chunked form of 8 MiB (the owner)", "admin", postForm("/status/retry", hugeForm("save"), bearer(), { framing: "chunked" }), refused(413, "form exceeds 4096 bytes")],
  ["retry, save not a number", "admin", postForm("/status/retry", "save=abc", bearer()), refused(400, "save must be a save id")],
  ["retry, save 1e3", "admin", postForm("/status/retry", "save=1e3", bearer()), refused(400, "save must be a save id")],
  ["retry, save -1", "admin", postForm("/status/retry", "save=-1", bearer()), refused(400, "save must be a save id")],
  ["retry, save of 16 digits", "admin", postForm("/status/retry", `save=${"9".repeat(16)}`, bearer()), refused(400, "save must be a save id")],
  ["retry, save empty", "admin", postForm("/status/retry", "save=", bearer()), refused(400, "save must be a save id")],
  ["retry, JSON body (no field: retries all)", "admin", postForm("/status/retry", '{"save":1}', [...bearer(), ["Content-Type", "application/json"]]), 303],
  ["logout without Origin", "admin", send("POST", "/logout", cookie("mysk_owner=junk")), CROSS_SITE],
  ["logout, same origin, no session", "admin", send("POST", "/logout", SAME_ORIGIN), NO_OWNER],
  ["rotate, no credentials, no Origin", "admin", send("POST", "/setup/rotate"), CROSS_SITE],
  ["rotate, no credentials, same origin", "admin", send("POST", "/setup/rotate", SAME_ORIGIN), NO_OWNER],
  ["rotate, Basic with the token but cross-site", "admin", send("POST", "/setup/rotate", [...basic(`:${ADMIN_TOKEN}`), ["Sec-Fetch-Site", "cross-site"]]), CROSS_SITE],
  ["rotate, junk cookie, same origin", "admin", send("POST", "/setup/rotate", [...SAME_ORIGIN, ...cookie("mysk_owner=junk")]), NO_OWNER],
];

/** The server without ADMIN_TOKEN: the owner is a loopback client that names this machine. */
const loopbackCases: Case[] = [
  ["loopback: status page (the owner)", "open", get("/"), granted()],
  ["loopback: Host localhost (the owner)", "open", get("/", [], { host: "localhost" }), granted()],
  ["loopback: Host [::1] (the owner)", "open", get("/", [], { host: "[::1]:9" }), granted()],
  ["loopback: X-Forwarded-For 127.0.0.1", "open", get("/", [["X-Forwarded-For", "127.0.0.1"]]), LOOPBACK_ONLY],
  ["loopback: X-Forwarded-For empty", "open", get("/", [["X-Forwarded-For", ""]]), LOOPBACK_ONLY],
  ["loopback: Forwarded for=127.0.0.1", "open", get("/", [["Forwarded", "for=127.0.0.1"]]), LOOPBACK_ONLY],
  ["loopback: X-Real-IP", "open", get("/setup", [["X-Real-IP", "127.0.0.1"]]), LOOPBACK_ONLY],
  ["loopback: X-Forwarded-For of 10 KB", "open", get("/metrics", [["X-Forwarded-For", KB10]]), LOOPBACK_ONLY],
  ["loopback: Host of another site (DNS rebinding)", "open", get("/", [], { host: "evil.example" }), LOOPBACK_ONLY],
  ["loopback: Host localhost.evil.example", "open", get("/setup", [], { host: "localhost.evil.example" }), LOOPBACK_ONLY],
  ["loopback: Host 127.0.0.1.nip.io", "open", get("/", [], { host: "127.0.0.1.nip.io" }), LOOPBACK_ONLY],
  ["loopback: Host 0.0.0.0", "open", get("/", [], { host: "0.0.0.0" }), LOOPBACK_ONLY],
  ["loopback: Host 2130706433", "open", get("/", [], { host: "2130706433" }), LOOPBACK_ONLY],
  ["loopback: Host with user info", "open", get("/", [], { host: "127.0.0.1:80@evil.example" }), BAD_HOST],
  ["loopback: Host of 10 KB", "open", get("/metrics", [], { host: KB10 }), LOOPBACK_ONLY],
  ["loopback: Host empty", "open", get("/", [], { host: "" }), BAD_HOST],
  ["loopback: Host [::1] with a tail", "open", get("/", [], { host: "[::1]x" }), BAD_HOST],
  ["loopback: Host 127.0.0.300", "open", get("/", [], { host: "127.0.0.300" }), BAD_HOST],
  ["loopback: Host localhost with port 0", "open", get("/", [], { host: "localhost:0" }), BAD_HOST],
  ["Host a:99999 on a player page", "admin", get(() => `/p/${playerOf("admin")}`, [], { host: "a:99999" }), BAD_HOST],
  ["Host localhost:65536 on /setup", "open", get("/setup", [], { host: "localhost:65536" }), BAD_HOST],
  ["Host [::1]x on a setup file", "admin", get(setupFile(() => setupOf("admin")), [], { host: "[::1]x" }), BAD_HOST],
  ["Host a:99999 on an upload", "admin", () => ({ ...linkUpload(() => playerOf("admin"))(), host: "a:99999" }), BAD_HOST],
  ["loopback: no Host", "open", get("/", [], { host: null }), 400],
  ["loopback: Bearer of 10 KB from another Host", "open", get("/setup", bearer(KB10), { host: "evil.example" }), LOOPBACK_ONLY],
  ["loopback: rotate without Origin", "open", send("POST", "/setup/rotate"), CROSS_SITE],
  ["loopback: rotate by a rebound page (its own Origin)", "open", send("POST", "/setup/rotate", [["Origin", "http://evil.example"]], undefined, { host: "evil.example" }), LOOPBACK_ONLY],
  ["loopback: retry by a rebound page (same-origin)", "open", postForm("/status/retry", "save=1", SAME_ORIGIN, { host: "evil.example" }), LOOPBACK_ONLY],
  ["loopback: retry cross-site", "open", postForm("/status/retry", "save=1", [["Sec-Fetch-Site", "cross-site"]]), CROSS_SITE],
  ["loopback: logout without Origin", "open", send("POST", "/logout"), CROSS_SITE],
  ["loopback: login needs nothing", "open", postForm("/login", `token=${KB10}`, SAME_ORIGIN), 303],
  ["loopback: setup file with a flipped token", "open", get(setupFile(() => flipCase(setupOf("open")))), NOT_FOUND],
  ["loopback: player page with a wrong link", "open", get(() => `/p/${playerOf("open").slice(1)}`), NOT_FOUND],
];

const corpus: Case[] = [...methodCases, ...pathCases, ...authCases, ...formCases, ...loopbackCases];

// ---- the run ------------------------------------------------------------------------------------------------

const { pair, env: keyEnv } = testKeys();

async function linkPlayer(server: RunningServer): Promise<string> {
  const run = Bun.spawnSync([process.execPath, "src/cli.ts", "players", "add", PLAYER_ID, "--name", "hostile-owner"], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, CONFIG_DIR: `${server.dataDir}/config` },
  });
  if (run.exitCode !== 0) throw new Error(`cli players add failed: ${run.stderr}`);
  return linkTokenOf(server, PLAYER_ID);
}

beforeAll(async () => {
  const env = { ...keyEnv, NOTIFY_DEFAULT: "none", UPLOAD_TOKEN };
  [admin, open] = await Promise.all([startServer({ env: { ...env, ADMIN_TOKEN } }), startServer({ env })]);
  for (const on of ["admin", "open"] as const) {
    const server = servers()[on];
    held[on] = { setup: await setupTokenOf(server), player: await linkPlayer(server) };
    // A save through the player link: the owner's pages now hold PLAYER_ID, its maps and their token.
    const body = encryptedSave(pair);
    const answer = await rawRequest(server.url, { ...linkUpload(() => held[on].player)(), body });
    expect(answer?.status).toBe(200);
  }
  const row = await eventually(async () => (await reads(admin).archives())[0], 15_000, "the save archived");
  archive = { token: row.token, file: row.files.find((file) => file.endsWith(".png"))! };
}, 30_000);
afterAll(async () => {
  for (const server of [admin, open]) {
    await server?.stop("SIGKILL");
    server?.cleanup();
  }
});

test("the table has at least 60 rows with distinct names", () => {
  expect(corpus.length).toBeGreaterThanOrEqual(60);
  expect(new Set(corpus.map(([name]) => name)).size).toBe(corpus.length);
});

/** The secrets and player data a server holds: no answer a row does not grant may carry one. */
function secretsOf(on: Target): string[] {
  const common = [UPLOAD_TOKEN, PLAYER_ID, held[on].setup, held[on].player];
  return on === "admin" ? [...common, ADMIN_TOKEN, archive.token] : common;
}

/** `asked`: what the request itself named (a player id in its path): echoing it back tells the asker nothing new. */
function problemsOf(name: string, on: Target, want: Expectation, answer: RawAnswer | null, asked: string): string[] {
  if (answer === null) return want.status === null ? [] : [`${name}: no answer`];
  const { status, headers, body } = answer;
  const problems: string[] = [];
  if (status >= 500 && !want.parser) problems.push(`${name}: ${status} ${body.slice(0, 120)}`);
  if (status !== want.status) problems.push(`${name}: expected ${want.status}, got ${status} ${body.slice(0, 80)}`);
  if (want.reason !== undefined && body !== want.reason) problems.push(`${name}: expected "${want.reason}", got "${body.slice(0, 80)}"`);
  if (want.granted) return problems;
  const shown = `${JSON.stringify(headers)}\n${body}`;
  for (const secret of secretsOf(on)) if (shown.includes(secret) && !asked.includes(secret)) problems.push(`${name}: the answer shows a secret (${secret.slice(0, 4)}…)`);
  if (/mysk_owner=[^;\s]/.test(headers["set-cookie"] ?? "")) problems.push(`${name}: the answer opens a session`);
  if (status >= 400 && body.length > 0) {
    const type = headers["content-type"] ?? "";
    if (!type.startsWith(want.html ? "text/html" : "text/plain")) problems.push(`${name}: content-type ${type}`);
    if (!want.html && body.length > 200) problems.push(`${name}: answer of ${body.length} chars`);
  }
  return problems;
}

test("every hostile request: its exact answer, no 5xx, no secret, the process stays up", async () => {
  const problems: string[] = [];
  const verbose: string[] = [];
  for (const [row, [name, on, build, expected]] of corpus.entries()) {
    const want = typeof expected === "number" ? { status: expected } : expected;
    const server = servers()[on];
    const built = build();
    const requests = (Array.isArray(built) ? built : [built]).map((request) => ({ from: `127.0.1.${1 + (row % 250)}`, ...request }));
    // A flood goes 20 at a time.
    for (let i = 0; i < requests.length; i += 20) {
      const answers = await Promise.all(requests.slice(i, i + 20).map((request) => rawRequest(server.url, request)));
      for (const [j, answer] of answers.entries()) problems.push(...problemsOf(name, on, want, answer, requests[i + j]!.path));
      if (process.env.CORPUS_VERBOSE && i === 0) verbose.push(`${answers[0]?.status} ${on} ${name}: ${answers[0]?.body.slice(0, 80)}`);
    }
    if (!isAlive(server.pid)) throw new Error(`the ${on} server died on "${name}":\n${server.output().slice(-2000)}`);
  }
  // CORPUS_VERBOSE=1 lists every answer.
  if (process.env.CORPUS_VERBOSE) console.log(verbose.join("\n"));
  expect([...new Set(problems)]).toEqual([]);
  for (const server of [admin, open]) {
    expect(server.output()).not.toMatch(/Uncaught|panic|Segmentation/i);
    // A client that hangs up mid-body is a 400 nobody reads, logged as such: nothing reaches "unhandled error".
    expect(server.output().split("\n").filter((line) => line.includes("unhandled error"))).toEqual([]);
  }
}, 30_000);

test("afterwards: the setup tokens are unchanged and the owner still logs in and sees the page", async () => {
  expect(await setupTokenOf(admin)).toBe(held.admin.setup);
  expect(await setupTokenOf(open)).toBe(held.open.setup);

  const login = await fetch(`${admin.url}/login`, {
    method: "POST",
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
    headers: { "Sec-Fetch-Site": "same-origin" },
    redirect: "manual",
  });
  expect(login.status).toBe(303);
  const session = /mysk_owner=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0];
  expect(session).toBeDefined();
  const page = await fetch(`${admin.url}/`, { headers: { Cookie: session! } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(PLAYER_ID);

  const loopbackPage = await fetch(`${open.url}/`);
  expect(loopbackPage.status).toBe(200);
  expect(await loopbackPage.text()).toContain(PLAYER_ID);
});
