/**
 * The two request paths of issue 24, point 3, alone: the shared harness's requests, one at a time as it sends
 * them (its generators and its HTTP client), against servers started in turn so before and after share the
 * same minutes of a loaded machine. Prints per server and round: report (nothing to process) p50/p99, upload
 * accept p50/p95, and the server's CPU and minor faults per request (/proc/<pid>/stat).
 * `bun bench/accept-paths.ts [--before=<checkout>] [--predecessor=<predecessor.sh export>] [--rounds=3]
 *   [--reports=100] [--uploads=20] [--harness=<harness folder with node_modules>]`
 * Each upload is followed by a wait for the server to go idle (its maps render), as the harness's latency
 * phase waits for the archive.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startService } from "../scripts/lib/service-process.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=").slice(1).join("=");
/** The shared harness with its node_modules: bench/harness.ts's prepared copy, or one given. */
const harness = resolve(arg("harness") ?? process.env.BENCH_HARNESS ?? join(tmpdir(), "mysekai-shared-harness"));
const rounds = Number(arg("rounds") ?? 3);
const reportN = Number(arg("reports") ?? 100);
const uploadN = Number(arg("uploads") ?? 20);
const before = arg("before");
const predecessor = arg("predecessor");
const KEYS = { AES_KEY: "BenchTestKey0001", AES_IV: "BenchTestIv00001" };

const { generateSave } = await import(join(harness, "lib/save.mjs"));
const { buildHar, compress } = await import(join(harness, "lib/har.mjs"));
const { request, makeAgent } = await import(join(harness, "lib/http.mjs"));

const tick = 100;
function stat(pid: number): { cpu: number; minflt: number } {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return { cpu: (Number(f[11]) + Number(f[12])) / tick, minflt: Number(f[7]) };
}

/** Until the server used under 2 % of a core for 300 ms (its pipeline is done), 60 s at most. */
async function idle(pid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = stat(pid).cpu;
  while (Date.now() < deadline) {
    await Bun.sleep(300);
    const now = stat(pid).cpu;
    if (now - last < 0.006) return;
    last = now;
  }
}

const seed = 424242;
const pid = (phase: number, i: number) => `9123456${phase}${String(i).padStart(5, "0")}`;
const reportBodies: Buffer[] = [];
for (let i = 0; i < reportN; i++) {
  const save = generateSave({ seed: seed * 10 + 30000 + i, key: "OtherBenchKey001", iv: KEYS.AES_IV });
  reportBodies.push(await compress(Buffer.from(JSON.stringify(buildHar({ save: save.encrypted, playerId: pid(3, i), seed: 30000 + i, key: KEYS.AES_KEY, iv: KEYS.AES_IV }))), "gzip"));
}
const uploadSaves = Array.from({ length: uploadN + 2 }, (_, i) => generateSave({ seed: seed * 10 + 10000 + i, key: KEYS.AES_KEY, iv: KEYS.AES_IV }).encrypted as Buffer);
const reportHeaders = { "Content-Type": "application/json", "X-Reqable-Platform": "bench", "X-Reqable-Reporter-Host": "example-game-host", "X-Reqable-Reporter-Rule": "bench", "Content-Encoding": "gzip" };

interface Target {
  label: string;
  start: () => Promise<{ base: string; pid: number; uploadPath: string; reportPath: string; stop: () => Promise<void> }>;
}

function ours(label: string, root: string | undefined): Target {
  return {
    label,
    start: async () => {
      const service = await startService({ root, env: { ...KEYS, NOTIFY_DEFAULT: "none", PIPELINE_POLL_MS: "1000" } });
      return { base: service.url, pid: service.pid, uploadPath: "/uploadSaveData", reportPath: "/capture/report", stop: async () => void (await service.stop(), service.cleanup()) };
    },
  };
}

function theirs(work: string): Target {
  const script = join(harness, "predecessor.sh");
  const port = "9478";
  const sh = async (...a: string[]) => void (await Bun.spawn([script, ...a], { stdout: "ignore", stderr: "ignore" }).exited);
  return {
    label: "predecessor",
    start: async () => {
      await sh("start", work, port);
      const serverPid = Number(readFileSync(join(work, "server.pid"), "utf8"));
      return { base: `http://127.0.0.1:${port}`, pid: serverPid, uploadPath: "/uploadMySekai", reportPath: "/reqable/report", stop: () => sh("stop", work) };
    },
  };
}

const quantile = (xs: number[], q: number) => {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.max(0, Math.ceil(q * a.length) - 1))]!; // nearest rank, as the harness
};

async function measure(target: Target, round: number): Promise<void> {
  const server = await target.start();
  try {
    const agent = makeAgent(1);
    const post = (path: string, headers: Record<string, string>, body: Buffer) => request(server.base + path, { headers, body, agent, timeoutMs: 60_000 });
    const upload = (save: Buffer, i: number) =>
      post(server.uploadPath, {
        "Content-Type": "application/octet-stream",
        "X-Upload-Id": `bench_${pid(1, i)}`,
        "X-Chunk-Index": "0",
        "X-Total-Chunks": "1",
        "X-Original-Url": `https://example-game-host/api/user/${pid(1, i)}/mysekai?isForceAllReloadOnlyMysekai=True`,
      }, save);
    // Warm-up: two uploads (as the harness's latency phase) and a few reports.
    for (let i = 0; i < 2; i++) await upload(uploadSaves[uploadN + i]!, uploadN + 1000 * round + i), await idle(server.pid);
    for (let i = 0; i < 5; i++) await post(server.reportPath, reportHeaders, reportBodies[reportN - 1 - i]!);
    await idle(server.pid);

    const reportMs: number[] = [];
    let mark = stat(server.pid);
    for (const body of reportBodies) {
      const r = await post(server.reportPath, reportHeaders, body);
      if (r.status !== 200) throw new Error(`${target.label} report: ${r.status} ${r.body}`);
      reportMs.push(r.totalMs);
    }
    await idle(server.pid); // the pipeline's look at each report belongs to its cost
    let end = stat(server.pid);
    const reportCpu = ((end.cpu - mark.cpu) / reportN) * 1000;
    const reportFaults = (end.minflt - mark.minflt) / reportN;

    const acceptMs: number[] = [];
    let acceptCpu = 0;
    let acceptFaults = 0;
    for (let i = 0; i < uploadN; i++) {
      mark = stat(server.pid);
      const r = await upload(uploadSaves[i]!, i + 1000 * round + 100);
      end = stat(server.pid);
      if (r.status !== 200) throw new Error(`${target.label} upload: ${r.status} ${r.body}`);
      acceptMs.push(r.totalMs);
      acceptCpu += end.cpu - mark.cpu;
      acceptFaults += end.minflt - mark.minflt;
      await idle(server.pid);
    }
    agent.destroy();
    const f = (x: number) => x.toFixed(1);
    console.log(
      `${target.label.padEnd(11)} round ${round}: report skip p50 ${f(quantile(reportMs, 0.5))} p99 ${f(quantile(reportMs, 0.99))} ms, ` +
        `${f(reportCpu)} ms CPU, ${Math.round(reportFaults)} faults a report | accept p50 ${f(quantile(acceptMs, 0.5))} p95 ${f(quantile(acceptMs, 0.95))} ms, ` +
        `~${f((acceptCpu / uploadN) * 1000)} ms CPU (10 ms ticks), ${Math.round(acceptFaults / uploadN)} faults an accept`,
    );
  } finally {
    await server.stop();
  }
}

const targets = [...(before ? [ours("before", resolve(before))] : []), ...(predecessor ? [theirs(resolve(predecessor))] : []), ours("after", undefined)];
for (let round = 1; round <= rounds; round++) for (const target of targets) await measure(target, round);
