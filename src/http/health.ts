/**
 * GET /healthz (JSON; 503 with the reasons when the database cannot be read, DATA_DIR is below its floor or the
 * pipeline cannot write)
 * and GET /metrics (Prometheus text). /healthz is open (Docker's HEALTHCHECK, uptime monitors) and shows no
 * player data; /metrics sits behind the owner's access rule (see app.ts).
 */
import { Hono } from "hono";
import { logWarn } from "../log.ts";
import { renderMetrics, type GaugeReading } from "../metrics.ts";
import { briefly, withDeadline } from "../store-unavailable.ts";
import type { HttpDeps } from "./deps.ts";
import type { QueueSnapshot } from "../store/model/pages.ts";

/** /healthz answers within a second whatever the database does: a balancer's check must not hang. */
const HEALTH_DEADLINE_MS = 800;

async function readQueue(deps: HttpDeps, deadlineMs: number): Promise<QueueSnapshot | null> {
  try {
    return await withDeadline(deps.pages, deadlineMs, "database").queueSnapshot(Date.now());
  } catch (error) {
    logWarn("SERVER", "health check: database cannot be read", { error: error instanceof Error ? briefly(error) : String(error).slice(0, 200) });
    return null;
  }
}

export interface Health {
  status: "ok" | "unhealthy";
  reasons: string[];
  database: "ok" | "error";
  queue: { depth: number; oldestQueuedAgeSeconds: number | null; byState: QueueSnapshot["byState"] } | null;
  disk: { freeBytes: number | null; floorBytes: number };
}

export function healthRoutes(deps: HttpDeps): Hono {
  const app = new Hono();
  app.get("/healthz", async (c) => {
    const queue = await readQueue(deps, HEALTH_DEADLINE_MS);
    const disk = deps.disk.reading();
    const cannotWrite = deps.pipelineWriteProblem?.() ?? null;
    const reasons = [
      ...(queue === null ? ["database cannot be read"] : []),
      ...(deps.disk.isFull() ? ["free disk space below MIN_FREE_DISK_MB"] : []),
      ...(cannotWrite === null ? [] : [`the pipeline cannot write: ${cannotWrite}`]),
    ];
    const body: Health = {
      status: reasons.length === 0 ? "ok" : "unhealthy",
      reasons,
      database: queue === null ? "error" : "ok",
      queue: queue === null ? null : { depth: queue.depth, oldestQueuedAgeSeconds: queue.oldestQueuedAgeMs === null ? null : Math.round(queue.oldestQueuedAgeMs / 1000), byState: queue.byState },
      disk: { freeBytes: disk?.freeBytes ?? null, floorBytes: deps.disk.floorBytes },
    };
    c.header("Cache-Control", "no-store");
    return c.json(body, reasons.length === 0 ? 200 : 503);
  });
  return app;
}

export function metricsRoute(deps: HttpDeps): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => {
    const queue = await readQueue(deps, deps.config.storage.storeTimeoutMs);
    const disk = deps.disk.reading();
    const gauges: GaugeReading[] = [{ name: "mysekai_database_up", help: "1 when the database could be read at this scrape.", values: [{ value: queue === null ? 0 : 1 }] }];
    if (queue !== null) {
      gauges.push(
        { name: "mysekai_jobs", help: "Jobs by state.", values: Object.entries(queue.byState).map(([state, value]) => ({ labels: { state }, value })) },
        { name: "mysekai_queue_depth", help: "Jobs not finished (pending, pending_retry, running, waiting_for_key).", values: [{ value: queue.depth }] },
        { name: "mysekai_oldest_queued_job_age_seconds", help: "Age of the oldest unfinished job (0 when none).", values: [{ value: (queue.oldestQueuedAgeMs ?? 0) / 1000 }] },
        { name: "mysekai_database_bytes", help: "Size of the database: the SQLite file's pages, or PostgreSQL's pg_database_size.", values: [{ value: await deps.pages.databaseBytes() }] },
      );
    }
    if (disk !== null) gauges.push({ name: "mysekai_disk_free_bytes", help: "Free space on DATA_DIR's filesystem.", values: [{ value: disk.freeBytes }] });
    return c.body(renderMetrics(gauges), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" });
  });
  return app;
}
