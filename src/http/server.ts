/** Serves the app with Bun.serve, with a body cap so no request can make us buffer more than the limits allow. */
import type { Hono } from "hono";
import type { Config } from "../config/index.ts";
import { MAX_CHUNK_BYTES } from "../contract.ts";

export function startHttpServer(app: Hono, config: Pick<Config, "host" | "port" | "report">): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: config.host,
    port: config.port,
    // Routes check their own, smaller limits; this is the outer wall (+64 KiB for a little slack).
    maxRequestBodySize: Math.max(MAX_CHUNK_BYTES, config.report.maxEncodedBytes) + 64 * 1024,
    fetch: app.fetch,
  });
}
