/** Serves the app with Bun.serve, with a body cap so no request can make us buffer more than the limits allow. */
import { MAX_CHUNK_BYTES } from "../contract.ts";
import { createApp } from "./app.ts";
import type { HttpDeps } from "./deps.ts";

export function startHttpServer(deps: HttpDeps): ReturnType<typeof Bun.serve> {
  const app = createApp(deps);
  return Bun.serve({
    hostname: deps.config.host,
    port: deps.config.port,
    // Routes check their own, smaller limits; this is the outer wall (+64 KiB for a little slack).
    maxRequestBodySize: Math.max(MAX_CHUNK_BYTES, deps.config.report.maxEncodedBytes) + 64 * 1024,
    fetch: app.fetch,
  });
}
