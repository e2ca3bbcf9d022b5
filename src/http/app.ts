/** Builds the Hono app once from its route families (the tests start the same app through main.ts). */
import { Hono } from "hono";
import { secretsOf } from "../config.ts";
import { redact } from "../notify/errors.ts";
import { reportPathForLog } from "../report-path.ts";
import type { HttpDeps } from "./deps.ts";
import { mapRoutes } from "./maps.ts";
import { reportRoutes } from "./report.ts";
import { uploadRoutes } from "./upload.ts";

export function createApp(deps: HttpDeps): Hono {
  const app = new Hono();
  const secrets = secretsOf(deps.config);
  const reportPath = deps.config.report.path;
  // The request path of a report is REPORT_PATH itself, which may be a secret.
  const pathForLog = (path: string) => (path.startsWith(reportPath) ? `${reportPathForLog(reportPath)}${path.slice(reportPath.length)}` : path);
  app.get("/healthz", (c) => c.text("ok"));
  app.route("/", uploadRoutes(deps));
  app.route("/", reportRoutes(deps));
  app.route("/", mapRoutes(deps));
  app.notFound((c) => c.text("not found", 404));
  app.onError((error, c) => {
    const text = redact(String(error), secrets).slice(0, 200);
    console.error(`[SERVER] unhandled error path=${pathForLog(c.req.path)} error=${JSON.stringify(text)}`);
    return c.text("internal error", 500);
  });
  return app;
}
