/** Builds the Hono app from its route families (one `app.route()` each); src/service.ts builds it once per service. */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { UPLOAD_PATHS } from "../contract.ts";
import { metrics } from "../metrics.ts";
import { redact } from "../notify/errors.ts";
import { logError, logWarn } from "../log.ts";
import { briefly, outOfSpace, STORE_RETRY_AFTER_SECONDS, unavailableStore } from "../store-unavailable.ts";
import { reportPathForLog } from "../report-path.ts";
import type { HttpDeps } from "./deps.ts";
import { bodyGates } from "./body-gate.ts";
import { diskFloor } from "./guards.ts";
import { apiRoutes } from "./api/routes.ts";
import { healthRoutes } from "./health.ts";
import { watchRoutes } from "./watch/routes.ts";
import { mapRoutes } from "./maps.ts";
import { REPORT_TOKEN_HEADERS, reportRoutes } from "./report.ts";
import { requireToken } from "./token.ts";
import { StoredLoginAttempts } from "./admin/login-throttle.ts";
import { SessionStore } from "./admin/sessions.ts";
import { noSniff, refuseFraming, validHost } from "./front-door.ts";
import { peerOf } from "./peer.ts";
import { pageText } from "./page-lang.ts";
import { setupRoutes } from "./setup/routes.tsx";
import { statusRoutes } from "./status/routes.tsx";
import { PLAYER_UPLOAD_PATHS, uploadRoutes } from "./upload.ts";

function trackIngest(ingest: HttpDeps["ingest"]): MiddlewareHandler {
  return async (_c, next) => {
    ingest.begin();
    try {
      await next();
    } finally {
      ingest.end();
    }
  };
}

function countAnswer(record: (ok: boolean) => void): MiddlewareHandler {
  return async (c, next) => {
    await next();
    record(c.res.status < 400);
  };
}

export function createApp(deps: HttpDeps): Hono {
  const app = new Hono();
  const { secrets } = deps;
  const reportPath = deps.config.report.path;
  // The request path of a report is REPORT_PATH itself, which may be a secret; setup and player links carry tokens.
  const pathForLog = (path: string) =>
    path.startsWith(reportPath)
      ? `${reportPathForLog(reportPath)}${path.slice(reportPath.length)}`
      : path.replace(/^\/(setup|p|maps)\/[^/]+/, "/$1/…").replace(/^\/spawns\/([^/]+)\/[^/]+/, "/spawns/$1/…");
  const { budget, report } = deps.config;
  const gateBodies = bodyGates(budget.decodeBytes, { ...budget, maxBodies: budget.peerMaxBodies, trustProxy: deps.config.trustProxy });
  const refuseWhenFull = diskFloor(deps.disk.isFull);
  const uploadPaths = [...UPLOAD_PATHS, ...PLAYER_UPLOAD_PATHS];
  app.use("*", refuseFraming(), noSniff(), validHost());
  // Rejections are counted here (guards included); the upload route counts its own kinds of success.
  app.on("POST", uploadPaths, countAnswer((ok) => {
    if (!ok) metrics.upload("rejected");
  }));
  if (report.enabled) app.on("POST", report.path, countAnswer((ok) => metrics.reportReceived(ok ? "accepted" : "rejected")));
  // Tokens first: a request without the right one never waits for, or holds, room in the budget.
  app.on("POST", [...UPLOAD_PATHS], requireToken(deps.config.uploads.token, ["x-upload-token"], "UPLOAD", "upload"));
  if (report.enabled) app.on("POST", report.path, requireToken(report.token, REPORT_TOKEN_HEADERS, "REPORT", "report"));
  // Past the token check, every upload and report counts, refused ones too (src/ingest/activity.ts bounds the wait).
  app.on("POST", report.enabled ? [...uploadPaths, report.path] : uploadPaths, trackIngest(deps.ingest));
  // Bodies hold the decode budget by what arrives, not by what they declare (src/http/body-gate.ts).
  app.on("POST", uploadPaths, refuseWhenFull, gateBodies("UPLOAD"));
  if (report.enabled) app.on("POST", report.path, refuseWhenFull, gateBodies("REPORT"));
  app.route("/", healthRoutes(deps));
  // One login opens every owner page.
  const gate = { sessions: new SessionStore(deps.owner.sessions, deps.config.admin.token), logins: new StoredLoginAttempts(deps.owner.loginFailures), peer: (c: Context) => peerOf(c, deps.config.trustProxy), text: (c: Context) => pageText(c, deps.config) };
  app.route("/", statusRoutes(deps, gate));
  app.route("/", watchRoutes(deps));
  app.route("/", setupRoutes(deps, gate));
  app.route("/", uploadRoutes(deps));
  app.route("/", reportRoutes(deps));
  app.route("/", mapRoutes(deps));
  app.route("/", apiRoutes(deps.api));
  app.notFound((c) => c.text(pageText(c, deps.config).errNotFound, 404));
  app.onError((error, c) => {
    // A client that hung up mid-body: nobody reads the answer, and it is no fault of ours.
    if (error instanceof Error && error.name === "AbortError") {
      logWarn("SERVER", "client went away before its body was read", { path: pathForLog(c.req.path) });
      return c.text("request body was cut off", 400);
    }
    // A store away or too slow: the client tries again soon (a 200 was never given, so nothing is lost).
    const store = unavailableStore(error);
    if (store !== null) {
      logWarn("SERVER", `${store} unavailable; answered 503`, { path: pathForLog(c.req.path), error: redact(briefly(error as Error), secrets) });
      return c.text(`the ${store} is unavailable just now; try again later`, 503, { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) });
    }
    const text = redact(error instanceof Error ? briefly(error) : String(error), secrets).slice(0, 200);
    // The disk filled under a commit (below MIN_FREE_DISK_MB's guard, or with it at 0): as the guard answers.
    if (outOfSpace(text)) {
      logWarn("SERVER", "storage full; answered 507", { path: pathForLog(c.req.path), error: text });
      return c.text("server storage is full; try again later", 507, { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) });
    }
    logError("SERVER", "unhandled error", { path: pathForLog(c.req.path), error: text });
    return c.text("internal error", 500);
  });
  return app;
}
