/**
 * Hub mode (issue 23, point 5): `--latency` saves one at a time, then a burst of `--saves` uploads at
 * `--concurrency`, through one process on SQLite (the same session's reference), then through one and two processes
 * on a fresh database of a throwaway PostgreSQL and a fresh bucket of a local Swift (scripts/lib's dev servers),
 * `PIPELINE_POLL_MS` at its default (1 s). Per deployment: upload → archived p50 one at a time (the server's own
 * times: the archive row's against the save's receipt), upload accept p50/p99, saves/s from the first send until
 * every job is done, CPU per save of each service process and of the stores' servers (this run's PostgreSQL and its
 * backends, Swift and its memcached; utime+stime from /proc), peak RSS. Uploads go round-robin over the processes.
 * Three layouts (issue 39, point 3): `shared`, everything on every core; `pinned`, the stores' servers and this load
 * generator on core 0 and the service processes on core 1 (taskset), so a service's own CPU a save and its scaling
 * from one to two processes are told apart from the stores'; `spread`, each service process on a core of its own
 * (the first on core 1, the second on core 0) and the stores and load on every core, as a hub's processes on
 * machines or cores of their own: two processes that share a core spend 4–7 % more CPU on the same work than one
 * (cache and TLB refills after each switch between them; `bench/shared-core.ts`, docs/benchmarks-history.md session 34).
 * SQLite runs in each layout as its reference.
 * `--root=DIR` runs the services of another checkout (e.g. an older commit's tree, to compare under the same load).
 * Distance (issue 46): `--pg-rtt-ms=N --s3-rtt-ms=M` put the hubs' stores that far away (bench/delay-proxy.ts, a process
 * of its own, with the stores' core in the pinned layout), and after the table each hub deployment's PostgreSQL
 * round trips and bucket requests a save, one at a time and in the burst. SQLite runs in the same run, as before.
 * `bun bench/hub.ts [--latency=10] [--saves=200] [--concurrency=8] [--warm=0] [--layout=shared|pinned|spread|both|all] [--root=DIR] [--threads] [--env=NAME=VALUE] [--pg-rtt-ms=0] [--s3-rtt-ms=0] [--processes=1,2]`
 * (`--warm=N`: N saves a process in an unmeasured burst first, so that CPU a save is a running hub's, its JIT paid).
 */
import { availableParallelism } from "node:os";
import postgres from "postgres";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService, type RunningService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { makeFreshEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { newLinkKey } from "../src/link-key.ts";
import { databaseForThisFile, postgresServer } from "../scripts/lib/dev-postgres.ts";
import { swiftBucket } from "../scripts/lib/dev-swift.ts";
import { intArg, peakRssMb, percentile, runConcurrent } from "./lib.ts";
import { breakdown, cpuOf, readProcess } from "./thread-cpu.ts";
import { pin, storePids, storesCpuSeconds } from "./hub-pids.ts";
import { describeCounts, startStoreDistance, type DistanceCounts, type StoreDistance } from "./delay-proxy.ts";

const latencySaves = intArg("latency", 10);
const saves = intArg("saves", 200);
const concurrency = intArg("concurrency", 8);
/** Saves each process handles in a burst before the measured one (0: none, as before issue 39's second session). */
const warm = intArg("warm", 0);
const root = process.argv.find((arg) => arg.startsWith("--root="))?.split("=")[1];
const layoutArg = process.argv.find((arg) => arg.startsWith("--layout="))?.split("=")[1] ?? "both";
const LAYOUTS = ["shared", "pinned", "spread"] as const;
type Layout = (typeof LAYOUTS)[number];
const layouts = (layoutArg === "all" ? [...LAYOUTS] : layoutArg === "both" ? ["shared", "pinned"] : [layoutArg]) as Layout[];
if (layouts.some((layout) => !LAYOUTS.includes(layout))) throw new Error(`--layout: shared, pinned, spread, both or all, not ${layoutArg}`);
if (layouts.some((layout) => layout !== "shared") && availableParallelism() < 2) throw new Error(`--layout=${layoutArg} needs two cores`);
/** Cores of the pinned layout: the stores and the load generator, the services. */
const STORES_CORE = "0";
const SERVICE_CORE = "1";
const ALL_CORES = `0-${availableParallelism() - 1}`;
/** `--threads`: after the table, each deployment's service CPU a save by thread name. */
const threads = process.argv.includes("--threads");
const threadTables: string[] = [];
/** The stores' distance, a round trip each (null: on this machine's loopback, no proxy between). */
const rttArg = (name: string) => (process.argv.some((arg) => arg.startsWith(`--${name}=`)) ? intArg(name, 0) : null);
const pgRttMs = rttArg("pg-rtt-ms");
const s3RttMs = rttArg("s3-rtt-ms");
const distant = pgRttMs !== null || s3RttMs !== null;
const countLines: string[] = [];
/** `--processes=1`: the hub deployments to run (default 1 and 2). */
const processCounts = (process.argv.find((arg) => arg.startsWith("--processes="))?.split("=")[1] ?? "1,2").split(",").map(Number);
/** `--env=NAME=VALUE` (repeatable): a setting every service process of every deployment gets, to try one. */
const extraEnv = Object.fromEntries(
  process.argv.filter((arg) => arg.startsWith("--env=")).map((arg) => {
    const [name, ...value] = arg.slice("--env=".length).split("=");
    return [name!, value.join("=")];
  }),
);

interface Deployment {
  label: string;
  processes: number;
  env: Record<string, string>;
  /** Saves whose job is done, counted in the deployment's database. */
  done(services: RunningService[]): Promise<number>;
  /** Each archived save's ms from its receipt to its archive row. */
  archivedAfter(services: RunningService[]): Promise<number[]>;
  /** CPU seconds of the deployment's own servers so far (0 on SQLite: none). */
  storesCpu(): number;
  /** The deployment's own servers (PostgreSQL's postmaster and backends, Swift's, the delay proxy), none on SQLite. */
  storePids(): number[];
  /** What passed between the services and the stores so far (only with the stores at a distance). */
  counts?(): Promise<DistanceCounts>;
  end(): Promise<void>;
}

const DONE = "SELECT count(*) AS n FROM jobs WHERE state = 'done' AND save_id IS NOT NULL";
const ARCHIVED_AFTER = "SELECT a.created_at - s.received_at AS ms FROM archives a JOIN saves s ON s.id = a.save_id";

function sqlite(): Deployment {
  return {
    label: "1 on SQLite, archives on disk",
    processes: 1,
    env: {},
    done: async ([service]) => {
      const db = service!.openDb();
      try {
        return (db.query(DONE).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    archivedAfter: async ([service]) => {
      const db = service!.openDb();
      try {
        return (db.query(ARCHIVED_AFTER).all() as { ms: number }[]).map((row) => row.ms);
      } finally {
        db.close();
      }
    },
    storesCpu: () => 0,
    storePids: () => [],
    end: async () => {},
  };
}

async function hub(processes: number): Promise<Deployment> {
  const [url, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const ports = [(await postgresServer()).port, Number(new URL(bucket.endpoint).port)] as const;
  const distance: StoreDistance | null = distant ? await startStoreDistance({ pgPort: ports[0], s3Endpoint: bucket.endpoint, pgRttMs: pgRttMs ?? 0, s3RttMs: s3RttMs ?? 0 }) : null;
  const serviceUrl = new URL(url);
  if (distance) serviceUrl.port = String(distance.pgPort);
  return {
    label: `${processes} on PostgreSQL + Swift`,
    processes,
    env: {
      DATABASE_URL: serviceUrl.href,
      LINK_KEY: newLinkKey(),
      ARCHIVE_URL: `s3://${bucket.bucket}/bench`,
      S3_ENDPOINT: distance?.s3Url ?? bucket.endpoint,
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    },
    done: async () => (await sql.unsafe<{ n: number }[]>(DONE.replace("count(*)", "count(*)::int")))[0]!.n,
    archivedAfter: async () => (await sql.unsafe<{ ms: string }[]>(ARCHIVED_AFTER)).map((row) => Number(row.ms)),
    storesCpu: () => storesCpuSeconds(...ports),
    storePids: () => [...storePids(...ports), ...(distance ? [distance.pid] : [])],
    ...(distance ? { counts: distance.counts } : {}),
    end: async () => {
      await sql.end();
      await distance?.stop();
    },
  };
}

async function run(deployment: Deployment, layout: Layout): Promise<string> {
  const { processes } = deployment;
  const { pair, env: keys } = randomKeys();
  // The default poll, as a hub runs (the launcher's 50 ms is for tests): each idle slot of each process would
  // otherwise claim and ask for the next due job 20 times a second, a cost that grows with the processes.
  const env = { ...keys, ...deployment.env, NOTIFY_DEFAULT: "none", PIPELINE_POLL_MS: "1000", ...extraEnv };
  const services: RunningService[] = await Promise.all(Array.from({ length: processes }, () => startService({ env, ...(root ? { root } : {}) })));
  // The stores' servers outlive a run: a layout after `pinned` frees them again.
  for (const pid of deployment.storePids()) pin(pid, layout === "pinned" ? STORES_CORE : ALL_CORES);
  // PostgreSQL's later backends fork from the pinned postmaster, a service's later threads from its pinned ones.
  if (layout === "pinned") for (const service of services) pin(service.pid, SERVICE_CORE);
  if (layout === "spread") services.forEach((service, i) => pin(service.pid, String((Number(SERVICE_CORE) + i) % availableParallelism())));
  const oneAtATime = await deployment.counts?.();
  for (let i = 0; i < latencySaves; i++) {
    const response = await uploadSave(services[i % processes]!.url, makeFreshEncryptedSample(pair), `one-${i}`);
    if (response.status !== 200) throw new Error(`upload one-${i}: ${response.status} ${await response.text()}`);
    await eventually(async () => (await deployment.done(services)) === i + 1, 60_000, `save one-${i} archived`);
  }
  const archivedAfter = (await deployment.archivedAfter(services)).sort((a, b) => a - b);
  const oneAtATimeDone = await deployment.counts?.();
  // A running hub's processes have long since compiled their hot code: each process's JIT and first-use costs are
  // paid here, once per process, and not counted a save.
  if (warm > 0) {
    const warmBodies = Array.from({ length: warm * processes }, () => makeFreshEncryptedSample(pair));
    await runConcurrent(warmBodies.length, concurrency, async (i) => {
      const response = await uploadSave(services[i % processes]!.url, warmBodies[i]!, `warm-${i}`);
      if (response.status !== 200) throw new Error(`upload warm-${i}: ${response.status} ${await response.text()}`);
    });
    await eventually(async () => (await deployment.done(services)) === latencySaves + warmBodies.length, 900_000, "the warm-up archived");
  }
  const counted = latencySaves + warm * processes;
  const bodies = Array.from({ length: saves }, () => makeFreshEncryptedSample(pair));
  const before = services.map((service) => readProcess(service.pid));
  const storesBefore = deployment.storesCpu();
  const burstBefore = await deployment.counts?.();
  const started = performance.now();
  const accepts = await runConcurrent(saves, concurrency, async (i) => {
    const response = await uploadSave(services[i % processes]!.url, bodies[i]!, `hub-${i}`);
    if (response.status !== 200) throw new Error(`upload ${i}: ${response.status} ${await response.text()}`);
  });
  await eventually(async () => (await deployment.done(services)) === counted + saves, 900_000, "every save archived");
  const seconds = (performance.now() - started) / 1000;
  const after = services.map((service) => readProcess(service.pid));
  const cpu = after.map((reading, i) => cpuOf(reading.total) - cpuOf(before[i]!.total));
  if (threads) threadTables.push(`${layout}, ${deployment.label} (ms user + sys a save): ${breakdown(before, after, saves)}`);
  const stores = deployment.storesCpu() - storesBefore;
  const burstDone = await deployment.counts?.();
  if (oneAtATime && oneAtATimeDone && burstBefore && burstDone) {
    countLines.push(`${layout}, ${deployment.label}: one at a time, ${describeCounts(oneAtATime, oneAtATimeDone, latencySaves)}`);
    countLines.push(`${layout}, ${deployment.label}: the burst, ${describeCounts(burstBefore, burstDone, saves)}`);
  }
  const rss = services.map((service) => peakRssMb(service.pid));
  const sorted = accepts.sort((a, b) => a - b);
  await deployment.end();
  for (const service of services) await service.stop();
  for (const service of services) service.cleanup();
  const perProcess = cpu.map((s) => `${((s / saves) * 1000).toFixed(0)}`).join(" + ");
  const storesPerSave = deployment.env.DATABASE_URL ? `${((stores / saves) * 1000).toFixed(0)} ms` : "–";
  return `| ${layout} | ${deployment.label} | ${percentile(archivedAfter, 50).toFixed(0)} ms | ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} ms | ${(saves / seconds).toFixed(2)} | ${perProcess} ms | ${storesPerSave} | ${rss.join(" / ")} MB |`;
}

const away = distant ? `; a hub's PostgreSQL ${pgRttMs ?? 0} ms and bucket ${s3RttMs ?? 0} ms away (round trip)` : "";
console.log(`${saves} saves (~${(makeFreshEncryptedSample(randomKeys().pair).byteLength / 1024).toFixed(0)} KB) at concurrency ${concurrency}, round-robin over the processes${away}`);
console.log("| layout | processes | upload → archived p50, one at a time | upload accept p50 / p99 | saves/s until all archived | CPU per save (each process) | CPU per save (PostgreSQL + Swift) | peak RSS |");
console.log("|---|---|---|---|---|---|---|---|");
for (const layout of layouts) {
  // The load generator sits with the stores: the services' core is theirs alone.
  pin(process.pid, layout === "pinned" ? STORES_CORE : ALL_CORES);
  console.log(await run(sqlite(), layout));
  for (const processes of processCounts) console.log(await run(await hub(processes), layout));
}
for (const line of [...threadTables, ...countLines]) console.log(`- ${line}`);
process.exit(0);
