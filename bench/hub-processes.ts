/**
 * What each process of a hub does per save that one process does once (issue 39): one, then two hub processes on
 * a fresh PostgreSQL database and Swift bucket, each process behind its own counting proxy (bench/pg-wire-counter.ts),
 * so every count is per process: round trips and client turns, claims and how many took a job, next-due reads,
 * LISTEN wake-ups delivered, the other statements, and CPU seconds (utime + stime; an upper bound on a shared
 * machine, the counts are not). Saves go round-robin over the processes, one at a time and then in a burst.
 * `bun bench/hub-processes.ts [--saves=10] [--burst=40] [--concurrency=8] [--warm=2] [--root=DIR]` (`--warm`: saves
 * each process handles before counting; DIR: another checkout's services, e.g. an older commit's tree).
 */
import postgres from "postgres";
import { databaseForThisFile } from "../scripts/lib/dev-postgres.ts";
import { swiftBucket } from "../scripts/lib/dev-swift.ts";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService, type RunningService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { newLinkKey } from "../src/link-key.ts";
import { intArg, processStat, runConcurrent, threadCpu } from "./lib.ts";
import { startPgWireCounter, wireDelta, type WireCounter, type WireCounts } from "./pg-wire-counter.ts";

const saves = intArg("saves", 10);
const burst = intArg("burst", 40);
const warm = intArg("warm", 2);
const concurrency = intArg("concurrency", 8);
const root = process.argv.find((arg) => arg.startsWith("--root="))?.split("=")[1];
const DONE = "SELECT count(*)::int AS n FROM jobs WHERE state = 'done' AND save_id IS NOT NULL";
const CLAIM = /^update jobs set state, attempts, lease_id, lease_expires_at, updated_at where jobs\.id = \(\(select id from jobs/;
const { pair, env: keys } = randomKeys();
const NEXT_DUE = /^select … from jobs where jobs\.state in \(\?, \?\)$/;

interface Snapshot {
  wire: WireCounts;
  cpu: number;
  threads: Record<string, number>;
}

interface Hub {
  services: RunningService[];
  counters: WireCounter[];
  done(): Promise<number>;
  end(): Promise<void>;
}

async function startHub(processes: number): Promise<Hub> {
  const [url, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
  const real = Number(new URL(url).port);
  const counters = await Promise.all(Array.from({ length: processes }, () => startPgWireCounter(real)));
  // One for all: what one process seals, the others open.
  const linkKey = newLinkKey();
  const services = await Promise.all(
    counters.map((counter) => {
      const proxied = new URL(url);
      proxied.port = String(counter.port);
      const env = {
        ...keys,
        NOTIFY_DEFAULT: "none",
        PIPELINE_POLL_MS: "1000",
        DATABASE_URL: proxied.href,
        LINK_KEY: linkKey,
        ARCHIVE_URL: `s3://${bucket.bucket}/bench`,
        S3_ENDPOINT: bucket.endpoint,
        S3_REGION: bucket.region,
        S3_ACCESS_KEY_ID: bucket.accessKeyId,
        S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      };
      return startService({ env, ...(root ? { root } : {}) });
    }),
  );
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    services,
    counters,
    done: async () => (await sql.unsafe<{ n: number }[]>(DONE))[0]!.n,
    end: async () => {
      await sql.end();
      for (const service of services) await service.stop();
      for (const counter of counters) await counter.stop();
      for (const service of services) service.cleanup();
    },
  };
}

const snapshot = (hub: Hub): Snapshot[] =>
  hub.services.map((service, i) => ({ wire: hub.counters[i]!.snapshot(), cpu: processStat(service.pid).cpuSeconds, threads: threadCpu(service.pid) }));

/** CPU a save by thread kind, summed over the processes: which of them grows with the processes. */
function threadLine(label: string, before: Snapshot[], after: Snapshot[], per: number): string {
  const sums: Record<string, number> = {};
  after.forEach((end, i) => {
    for (const [name, seconds] of Object.entries(end.threads)) sums[name] = (sums[name] ?? 0) + seconds - (before[i]!.threads[name] ?? 0);
  });
  const parts = Object.entries(sums).filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1]);
  return `- ${label}: ${parts.map(([name, seconds]) => `${name} ${((seconds / per) * 1000).toFixed(1)}`).join(", ")} ms a save`;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function rows(label: string, before: Snapshot[], after: Snapshot[], per: number): string[] {
  const lines: string[] = [];
  const total = { roundTrips: 0, turns: 0, claims: 0, took: 0, nextDue: 0, notifications: 0, cpu: 0 };
  after.forEach((end, i) => {
    const delta = wireDelta(before[i]!.wire, end.wire);
    const sum = (pattern: RegExp, key: "runs" | "rows") => Object.entries(delta.statements).reduce((n, [text, count]) => n + (pattern.test(text) ? count[key] : 0), 0);
    const p = {
      roundTrips: delta.readyForQuery,
      turns: delta.turns,
      claims: sum(CLAIM, "runs"),
      took: sum(CLAIM, "rows"),
      nextDue: sum(NEXT_DUE, "runs"),
      notifications: delta.notifications,
      cpu: end.cpu - before[i]!.cpu,
    };
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += p[key];
    lines.push(line(`${label}, process ${i + 1} of ${after.length}`, p, per));
  });
  if (after.length > 1) lines.push(line(`${label}, all ${after.length}`, total, per));
  return lines;
}

function line(label: string, p: { roundTrips: number; turns: number; claims: number; took: number; nextDue: number; notifications: number; cpu: number }, per: number): string {
  const each = (n: number) => fmt(n / per);
  return `| ${label} | ${each(p.roundTrips)} / ${each(p.turns)} | ${each(p.claims)} (${each(p.took)} took a job) | ${each(p.nextDue)} | ${each(p.notifications)} | ${((p.cpu / per) * 1000).toFixed(0)} ms |`;
}

async function measure(processes: number): Promise<string[]> {
  const hub = await startHub(processes);
  try {
    let expected = 0;
    const allDone = () => eventually(async () => (await hub.done()) === expected, 600_000, "saves archived");
    const upload = async (i: number, body: Uint8Array, id: string) => {
      const response = await uploadSave(hub.services[i % processes]!.url, body, id);
      if (response.status !== 200) throw new Error(`upload ${id}: ${response.status} ${await response.text()}`);
    };
    // First use of each process (`--warm` saves each): connections, prepared statements, the worker's font and
    // catalogue, the JIT's first tiers.
    for (let i = 0; i < warm * processes; i++) {
      await upload(i, makeFreshEncryptedSample(pair), `warm-${i}`);
      expected++;
      await allDone();
    }
    const oneBefore = snapshot(hub);
    for (let i = 0; i < saves; i++) {
      await upload(i, makeFreshEncryptedSample(pair), `one-${i}`);
      expected++;
      await allDone();
    }
    const oneAfter = snapshot(hub);
    const bodies = Array.from({ length: burst }, () => makeFreshEncryptedSample(pair));
    await runConcurrent(burst, concurrency, (i) => upload(i, bodies[i]!, `burst-${i}`));
    expected += burst;
    await allDone();
    const burstAfter = snapshot(hub);
    threadLines.push(threadLine(`${processes} process${processes > 1 ? "es" : ""}, burst`, oneAfter, burstAfter, burst));
    return [...rows("one at a time", oneBefore, oneAfter, saves), ...rows(`burst of ${burst} at ${concurrency}`, oneAfter, burstAfter, burst)];
  } finally {
    await hub.end();
  }
}

console.log(`Per save (one at a time: ${saves}; burst: ${burst} at concurrency ${concurrency}), round-robin over the processes${root ? `; services of ${root}` : ""}`);
console.log("| processes, phase | PostgreSQL round trips / client turns | claims | next-due reads | LISTEN wake-ups delivered | CPU (upper bound) |");
console.log("|---|---|---|---|---|---|");
const threadLines: string[] = [];
for (const processes of [1, 2]) for (const row of await measure(processes)) console.log(row);
console.log(["", "CPU by thread kind, all processes (upper bound):", ...threadLines].join("\n"));
process.exit(0);
