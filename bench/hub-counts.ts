/**
 * Where a hub process's cost goes (issue 39, point 1), in counts that do not depend on the machine's load: one
 * hub process on a throwaway PostgreSQL and Swift bucket, each behind a counting proxy (bench/pg-wire-counter.ts,
 * bench/s3-counter.ts), and the same service on SQLite beside it. Per save, one at a time: the upload's and the
 * pipeline's PostgreSQL round trips and statements (rows and bytes each way), S3 requests by verb and object, and
 * on both stores the JSON texts of 1 KiB or more parsed and built on the HTTP thread (bench/json-counter-preload.ts)
 * and the CPU time (an upper bound on a shared machine). Then a burst at `--concurrency`: the same per save, the
 * most PostgreSQL connections busy at once (against the pool's size: at it, queries wait), LISTEN wake-ups. Idle:
 * what the poller sends a second. And a save sent in two chunks: what each chunk's request costs. `--profile=DIR`: both services run under `bun --cpu-prof` (the HTTP thread),
 * written at stop; bench/cpu-profile-summary.ts sums them.
 * `bun bench/hub-counts.ts [--saves=10] [--burst=40] [--concurrency=8] [--profile=DIR]`
 */
import { join } from "node:path";
import postgres from "postgres";
import { databaseForThisFile } from "../scripts/lib/dev-postgres.ts";
import { swiftBucket } from "../scripts/lib/dev-swift.ts";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService, type RunningService } from "../scripts/lib/service-process.ts";
import { uploadChunk, uploadSave } from "../scripts/lib/upload-client.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { newLinkKey } from "../src/link-key.ts";
import { intArg, processStat, runConcurrent, threadCpu } from "./lib.ts";
import { startPgWireCounter, wireDelta, type WireCounts } from "./pg-wire-counter.ts";
import { s3Delta, startS3Counter, type S3Counts } from "./s3-counter.ts";

const saves = intArg("saves", 10);
const burst = intArg("burst", 40);
const concurrency = intArg("concurrency", 8);
const profileDir = process.argv.find((arg) => arg.startsWith("--profile="))?.split("=")[1];
const DONE = "SELECT count(*)::int AS n FROM jobs WHERE state = 'done' AND save_id IS NOT NULL";

interface JsonCounts {
  parse: number;
  parseChars: number;
  stringify: number;
  stringifyChars: number;
}

async function jsonCounts(service: RunningService): Promise<JsonCounts> {
  const from = service.output().length;
  process.kill(service.pid, "SIGUSR2");
  const line = await eventually(() => /json-counts (\{.*\})/.exec(service.output().slice(from))?.[1], 5_000, "json counts");
  return JSON.parse(line) as JsonCounts;
}

interface Probe {
  wire?: WireCounts;
  s3?: S3Counts;
  json: JsonCounts;
  cpu: number;
  threads: Record<string, number>;
}

const probeProcess = (pid: number) => ({ cpu: processStat(pid).cpuSeconds, threads: threadCpu(pid) });

interface Deployment {
  label: string;
  service: RunningService;
  done(): Promise<number>;
  probe(): Promise<Probe>;
  peakBusy?: () => number;
  resetPeak?: () => void;
  end(): Promise<void>;
}

const { pair, env: keys } = randomKeys();
const bunArgs = (label: string) => ["--preload", join(import.meta.dir, "json-counter-preload.ts"), ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${join(profileDir, label)}`] : [])];
const baseEnv = { ...keys, NOTIFY_DEFAULT: "none", PIPELINE_POLL_MS: "1000" };

async function sqliteDeployment(): Promise<Deployment> {
  const service = await startService({ env: baseEnv, bunArgs: bunArgs("sqlite") });
  return {
    label: "SQLite",
    service,
    done: async () => {
      const db = service.openDb();
      try {
        return (db.query(DONE.replace("::int", "")).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    probe: async () => ({ json: await jsonCounts(service), ...probeProcess(service.pid) }),
    end: async () => {},
  };
}

async function hubDeployment(): Promise<Deployment> {
  const [url, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
  const real = new URL(url);
  const wire = await startPgWireCounter(Number(real.port));
  const s3 = await startS3Counter(bucket.endpoint);
  const proxied = new URL(url);
  proxied.port = String(wire.port);
  const env = {
    ...baseEnv,
    DATABASE_URL: proxied.href,
    LINK_KEY: newLinkKey(),
    ARCHIVE_URL: `s3://${bucket.bucket}/bench`,
    S3_ENDPOINT: s3.url,
    S3_REGION: bucket.region,
    S3_ACCESS_KEY_ID: bucket.accessKeyId,
    S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
  };
  const service = await startService({ env, bunArgs: bunArgs("hub") });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    label: "PostgreSQL + Swift",
    service,
    done: async () => (await sql.unsafe<{ n: number }[]>(DONE))[0]!.n,
    probe: async () => ({ wire: wire.snapshot(), s3: s3.snapshot(), json: await jsonCounts(service), ...probeProcess(service.pid) }),
    peakBusy: wire.peakBusy,
    resetPeak: wire.resetPeak,
    end: async () => {
      await sql.end();
      await wire.stop();
      await s3.stop();
    },
  };
}

interface Phase {
  wire: WireCounts[];
  s3: S3Counts[];
  json: JsonCounts[];
  cpu: number;
  threads: Record<string, number>;
}

const emptyPhase = (): Phase => ({ wire: [], s3: [], json: [], cpu: 0, threads: {} });

function addDelta(phase: Phase, before: Probe, after: Probe): void {
  if (before.wire && after.wire) phase.wire.push(wireDelta(before.wire, after.wire));
  if (before.s3 && after.s3) phase.s3.push(s3Delta(before.s3, after.s3));
  phase.json.push({
    parse: after.json.parse - before.json.parse,
    parseChars: after.json.parseChars - before.json.parseChars,
    stringify: after.json.stringify - before.json.stringify,
    stringifyChars: after.json.stringifyChars - before.json.stringifyChars,
  });
  phase.cpu += after.cpu - before.cpu;
  for (const [name, seconds] of Object.entries(after.threads)) phase.threads[name] = (phase.threads[name] ?? 0) + seconds - (before.threads[name] ?? 0);
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function report(title: string, phase: Phase, per: number): string {
  const lines = [`#### ${title} (per save, over ${per})`];
  const json = phase.json.reduce((a, b) => ({ parse: a.parse + b.parse, parseChars: a.parseChars + b.parseChars, stringify: a.stringify + b.stringify, stringifyChars: a.stringifyChars + b.stringifyChars }));
  lines.push(`JSON ≥ 1 KiB on the HTTP thread: ${fmt(json.parse / per)} parses (${kb(json.parseChars / per)}), ${fmt(json.stringify / per)} builds (${kb(json.stringifyChars / per)}); CPU ${((phase.cpu / per) * 1000).toFixed(0)} ms (shared machine, upper bound)`);
  const threads = Object.entries(phase.threads).filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1]);
  lines.push(`CPU by thread: ${threads.map(([name, seconds]) => `${name} ${((seconds / per) * 1000).toFixed(0)} ms`).join(", ")}`);
  if (phase.wire.length > 0) {
    const sum = (key: "readyForQuery" | "turns" | "notifications" | "bytesToServer" | "bytesFromServer") => phase.wire.reduce((total, delta) => total + delta[key], 0) / per;
    lines.push(`PostgreSQL: ${fmt(sum("readyForQuery"))} round trips (ReadyForQuery), ${fmt(sum("turns"))} client turns, ${kb(sum("bytesToServer"))} sent, ${kb(sum("bytesFromServer"))} received, ${fmt(sum("notifications"))} notifications`);
    const merged = new Map<string, { runs: number; rows: number; sent: number; received: number }>();
    for (const delta of phase.wire)
      for (const [label, count] of Object.entries(delta.statements)) {
        const into = merged.get(label) ?? { runs: 0, rows: 0, sent: 0, received: 0 };
        merged.set(label, { runs: into.runs + count.runs, rows: into.rows + count.rows, sent: into.sent + count.sent, received: into.received + count.received });
      }
    lines.push("", "| statement | runs | rows | sent | received |", "|---|---|---|---|---|");
    for (const [label, count] of [...merged].sort((a, b) => b[1].runs - a[1].runs))
      lines.push(`| \`${label.replace(/\|/g, "\\|")}\` | ${fmt(count.runs / per)} | ${fmt(count.rows / per)} | ${kb(count.sent / per)} | ${kb(count.received / per)} |`);
    const s3 = new Map<string, { requests: number; sent: number; received: number }>();
    for (const delta of phase.s3)
      for (const [label, count] of Object.entries(delta)) {
        const into = s3.get(label) ?? { requests: 0, sent: 0, received: 0 };
        s3.set(label, { requests: into.requests + count.requests, sent: into.sent + count.sent, received: into.received + count.received });
      }
    lines.push("", "| S3 request | count | sent | received |", "|---|---|---|---|");
    for (const [label, count] of [...s3].sort()) lines.push(`| ${label} | ${fmt(count.requests / per)} | ${kb(count.sent / per)} | ${kb(count.received / per)} |`);
  }
  return lines.join("\n");
}

async function measure(deployment: Deployment): Promise<string> {
  const { service } = deployment;
  const upload = async (body: Uint8Array, id: string) => {
    const response = await uploadSave(service.url, body, id);
    if (response.status !== 200) throw new Error(`upload ${id}: ${response.status} ${await response.text()}`);
  };
  let expected = 0;
  const allDone = () => eventually(async () => (await deployment.done()) === expected, 600_000, "saves archived");
  // First use: connections, prepared statements, the worker's font and catalogue.
  for (let i = 0; i < 2; i++) {
    await upload(makeFreshEncryptedSample(pair), `warm-${i}`);
    expected++;
    await allDone();
  }
  const accept = emptyPhase();
  const pipeline = emptyPhase();
  for (let i = 0; i < saves; i++) {
    const body = makeFreshEncryptedSample(pair);
    const before = await deployment.probe();
    await upload(body, `one-${i}`);
    const answered = await deployment.probe();
    expected++;
    await allDone();
    const after = await deployment.probe();
    addDelta(accept, before, answered);
    addDelta(pipeline, answered, after);
  }
  // The same save in two chunks (a capture tool that splits its body): what each chunk's request costs.
  const chunked = emptyPhase();
  for (let i = 0; i < Math.min(saves, 5); i++) {
    const body = makeFreshEncryptedSample(pair);
    const half = Math.ceil(body.byteLength / 2);
    for (const [index, part] of [body.subarray(0, half), body.subarray(half)].entries()) {
      const before = await deployment.probe();
      const response = await uploadChunk(service.url, part, `two-${i}`, index, 2);
      if (response.status !== 200) throw new Error(`chunk ${index} of two-${i}: ${response.status} ${await response.text()}`);
      addDelta(chunked, before, await deployment.probe());
    }
    expected++;
    await allDone();
  }
  const idle = emptyPhase();
  const idleBefore = await deployment.probe();
  await Bun.sleep(5_000);
  addDelta(idle, idleBefore, await deployment.probe());

  const bodies = Array.from({ length: burst }, () => makeFreshEncryptedSample(pair));
  const whole = emptyPhase();
  deployment.resetPeak?.();
  const burstBefore = await deployment.probe();
  await runConcurrent(burst, concurrency, (i) => upload(bodies[i]!, `burst-${i}`));
  expected += burst;
  await allDone();
  addDelta(whole, burstBefore, await deployment.probe());
  const peak = deployment.peakBusy ? `; PostgreSQL connections busy at once, peak: ${deployment.peakBusy()}` : "";
  return [
    `### ${deployment.label}`,
    report("upload, one at a time: from sending it to its 200", accept, saves),
    report("pipeline, one at a time: from the 200 until the job is done", pipeline, saves),
    report("upload in two chunks, one at a time: from sending a chunk to its 200", chunked, 2 * Math.min(saves, 5)),
    report("idle, per second (the poller)", idle, 5),
    report(`burst of ${burst} at concurrency ${concurrency}: upload and pipeline${peak}`, whole, burst),
  ].join("\n\n");
}

const deployments: Deployment[] = [];
try {
  deployments.push(await sqliteDeployment(), await hubDeployment());
  for (const deployment of deployments) console.log(await measure(deployment));
} finally {
  // Stopped however the run ends: a service left behind would run on, polling its database.
  for (const deployment of deployments) {
    await deployment.service.stop();
    await deployment.end();
    deployment.service.cleanup();
  }
}
if (profileDir) console.log(`CPU profiles of the HTTP thread in ${profileDir}/sqlite and ${profileDir}/hub: bun bench/cpu-profile-summary.ts <file>`);
process.exit(0);
