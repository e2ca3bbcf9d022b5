/** Builds the Hono app once from its route families (the tests start the same app through main.ts). */
import { Hono } from "hono";
import type { HttpDeps } from "./deps.ts";
import { mapRoutes } from "./maps.ts";
import { reportRoutes } from "./report.ts";
import { uploadRoutes } from "./upload.ts";

export function createApp(deps: HttpDeps): Hono {
  const app = new Hono();
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
