/** Builds the Hono app once from its route families (the tests start the same app through main.ts). */
import { Hono } from "hono";
import { MIB, UPLOAD_PATHS } from "../config.ts";
import type { HttpDeps } from "./deps.ts";
import { ByteBudget, declaredOrCap, decodeBudget, diskFloor } from "./guards.ts";
import { mapRoutes } from "./maps.ts";
import { reportRoutes } from "./report.ts";
import { uploadRoutes } from "./upload.ts";

export function createApp(deps: HttpDeps): Hono {
  const app = new Hono();
  const { budget, report } = deps.config;
  const decoding = new ByteBudget(budget.decodeBytes);
  const refuseWhenFull = diskFloor(deps.diskFull);
  // An upload chunk is at most 1 MiB (larger ones get 413 before their body is read).
  app.on("POST", [...UPLOAD_PATHS], refuseWhenFull, decodeBudget(decoding, budget.waitMs, "UPLOAD", declaredOrCap(MIB)));
  // A report may decompress to its cap whatever it declares, so it holds the cap.
  if (report.enabled) app.on("POST", report.path, refuseWhenFull, decodeBudget(decoding, budget.waitMs, "REPORT", () => report.maxDecodedBytes));
  app.get("/healthz", (c) => c.text("ok"));
  app.route("/", uploadRoutes(deps));
  app.route("/", reportRoutes(deps));
  app.route("/", mapRoutes(deps));
  app.notFound((c) => c.text("not found", 404));
  app.onError((error, c) => {
    console.error(`[SERVER] unhandled error path=${c.req.path} error=${JSON.stringify(String(error).slice(0, 200))}`);
    return c.text("internal error", 500);
  });
  return app;
}
