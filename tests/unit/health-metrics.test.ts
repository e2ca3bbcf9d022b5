import type { Health } from "../../src/http/health.ts";
import { describe, expect, test } from "bun:test";
import { metrics, renderMetrics } from "../../src/metrics.ts";
import { ownerApp } from "../helpers/owner-app.ts";
import { parsePrometheus, valueOf } from "../helpers/prometheus.ts";

describe("/healthz", () => {
  test("healthy: 200 with the database check, queue depth, oldest queued job age and free disk", async () => {
    const app = ownerApp();
    try {
      const response = await app.request("/healthz");
      expect(response.status).toBe(200);
      const body = (await response.json()) as Health;
      expect(body).toMatchObject({ status: "ok", reasons: [], database: "ok", queue: { depth: 1 }, disk: { freeBytes: 10 * 2 ** 30 } });
      expect(body.queue?.oldestQueuedAgeSeconds).toBeGreaterThanOrEqual(0);
      expect(body.queue?.byState.pending).toBe(1);
    } finally {
      app.cleanup();
    }
  });

  test("disk below its floor: 503 with the reason", async () => {
    const app = ownerApp({}, { full: true, freeBytes: 1024 });
    try {
      const response = await app.request("/healthz");
      expect(response.status).toBe(503);
      expect(((await response.json()) as Health).reasons).toEqual(["free disk space below MIN_FREE_DISK_MB"]);
    } finally {
      app.cleanup();
    }
  });

  test("a database that cannot be read: 503 with the reason, and /metrics says database_up 0", async () => {
    const app = ownerApp();
    app.db.$client.exec("DROP TABLE deliveries; DROP TABLE jobs");
    try {
      const response = await app.request("/healthz");
      expect(response.status).toBe(503);
      expect((await response.json()) as Health).toMatchObject({ status: "unhealthy", database: "error", reasons: ["database cannot be read"], queue: null });
      const scrape = await app.request("/metrics", {}, "127.0.0.1");
      expect(valueOf(parsePrometheus(await scrape.text()).samples, "mysekai_database_up")).toBe(0);
    } finally {
      app.cleanup();
    }
  });
});

describe("/metrics text format", () => {
  test("parses, declares every family's type, and histograms are cumulative", () => {
    metrics.stageFinished("generate", 30);
    metrics.stageFinished("generate", 3000);
    metrics.delivery('odd"channel\\', "sent");
    const { samples, types } = parsePrometheus(renderMetrics([{ name: "g", help: "a gauge", values: [{ labels: { a: "x\ny" }, value: 2 }] }]));
    for (const sample of samples) {
      const family = sample.name.replace(/_(bucket|sum|count)$/, "");
      expect(types.has(sample.name) || types.get(family) === "histogram").toBe(true);
    }
    expect(types.get("mysekai_stage_duration_seconds")).toBe("histogram");
    const buckets = samples.filter((s) => s.name === "mysekai_stage_duration_seconds_bucket" && s.labels.stage === "generate");
    const counts = buckets.map((s) => s.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(valueOf(samples, "mysekai_stage_duration_seconds_bucket", { stage: "generate", le: "0.05" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "mysekai_stage_duration_seconds_bucket", { stage: "generate", le: "+Inf" })).toBe(valueOf(samples, "mysekai_stage_duration_seconds_count", { stage: "generate" }));
    expect(valueOf(samples, "mysekai_deliveries_total", { channel: 'odd"channel\\', outcome: "sent" })).toBe(1);
    expect(valueOf(samples, "g", { a: "x\ny" })).toBe(2);
    expect(valueOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});
