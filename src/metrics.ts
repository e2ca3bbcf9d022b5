/**
 * The process's metrics registry and the Prometheus text format (version 0.0.4). Counters and histograms
 * move where events happen (one call each); gauges read at scrape time are passed to `renderMetrics`.
 * Written here rather than with prom-client: a few dozen lines, no dependency, and prom-client's default
 * process metrics read V8 internals that report zeros under Bun.
 */
type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([key, value]) => `${key}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
}

function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN";
}

interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  lines: () => string[];
}

class Counter<L extends string> {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Record<L, string>, by = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }
  family(): Family {
    return { name: this.name, help: this.help, type: "counter", lines: () => [...this.values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`) };
  }
}

class Histogram<L extends string> {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {}
  observe(labels: Record<L, string>, value: number): void {
    const key = labelText(labels);
    const entry = this.series.get(key) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((bound, i) => {
      if (value <= bound) entry.counts[i]! += 1;
    });
    entry.sum += value;
    entry.count += 1;
    this.series.set(key, entry);
  }
  family(): Family {
    const lines = () =>
      [...this.series.values()].flatMap((e) => [
        ...this.buckets.map((bound, i) => `${this.name}_bucket${labelText({ ...e.labels, le: numberText(bound) })} ${e.counts[i]}`),
        `${this.name}_bucket${labelText({ ...e.labels, le: "+Inf" })} ${e.count}`,
        `${this.name}_sum${labelText(e.labels)} ${e.sum}`,
        `${this.name}_count${labelText(e.labels)} ${e.count}`,
      ]);
    return { name: this.name, help: this.help, type: "histogram", lines };
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const uploads = new Counter<"outcome">("mysekai_uploads_total", "Upload chunks answered, by outcome (save, duplicate, resend, chunk, rejected).");
const reportsReceived = new Counter<"outcome">("mysekai_reports_received_total", "Report requests answered, by outcome (accepted, rejected).");
const reportOutcomes = new Counter<"outcome">("mysekai_reports_total", "Reports evaluated, by outcome (save, duplicate, no_save, empty_bodies, partial_save).");
const stageSeconds = new Histogram<"stage">("mysekai_stage_duration_seconds", "Time a pipeline stage ran, by stage.", SECONDS);
const deliveriesTotal = new Counter<"channel" | "outcome">("mysekai_deliveries_total", "Delivery attempts, by channel and outcome (sent, retry, failed).");
const renderSeconds = new Histogram<never>("mysekai_render_seconds", "Time to decrypt, draw and archive one save's maps in a worker.", SECONDS);

/** The event calls: one line where the event happens. */
export const metrics = {
  upload: (outcome: string) => uploads.inc({ outcome }),
  reportReceived: (outcome: "accepted" | "rejected") => reportsReceived.inc({ outcome }),
  reportEvaluated: (outcome: string) => reportOutcomes.inc({ outcome }),
  stageFinished: (stage: string, ms: number) => stageSeconds.observe({ stage }, ms / 1000),
  delivery: (channel: string, outcome: "sent" | "retry" | "failed") => deliveriesTotal.inc({ channel, outcome }),
  rendered: (ms: number) => renderSeconds.observe({}, ms / 1000),
};

/** A gauge read at scrape time: one value per label set. */
export interface GaugeReading {
  name: string;
  help: string;
  values: { labels?: Labels; value: number }[];
}

function processGauges(): GaugeReading[] {
  const memory = process.memoryUsage();
  return [
    { name: "process_resident_memory_bytes", help: "Resident memory size in bytes.", values: [{ value: memory.rss }] },
    { name: "process_heap_bytes", help: "JavaScript heap in use, in bytes.", values: [{ value: memory.heapUsed }] },
    { name: "process_start_time_seconds", help: "Start time of the process since the Unix epoch, in seconds.", values: [{ value: Math.round((Date.now() - process.uptime() * 1000) / 1000) }] },
  ];
}

export function renderMetrics(gauges: GaugeReading[]): string {
  const families: Family[] = [
    ...[uploads, reportsReceived, reportOutcomes, deliveriesTotal, stageSeconds, renderSeconds].map((metric) => metric.family()),
    ...[...gauges, ...processGauges()].map(
      (gauge): Family => ({ name: gauge.name, help: gauge.help, type: "gauge", lines: () => gauge.values.map((v) => `${gauge.name}${labelText(v.labels ?? {})} ${numberText(v.value)}`) }),
    ),
  ];
  return families.map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.lines()].join("\n")).join("\n") + "\n";
}
