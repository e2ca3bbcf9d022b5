/**
 * Slow and patient clients and floods of junk against the real server (issue 22's numbers):
 *   1. normal-upload latency while 8 slow uploads and 2 slow reports (each declaring 1 MiB) drip a byte every 200 ms;
 *   2. received → archived of a real save sent right after `--junk` (2,000) junk uploads, beside a lone one;
 *   3. the WAL's size after `--uploads` (20,000) small uploads, and once the checkpointer has caught up.
 * `bun bench/floods.ts [--junk=2000] [--uploads=20000] [--root=<checkout>]` (--root: measure another checkout)
 */
import { connect } from "node:net";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { makeSampleSave, randomKeys, SAMPLE_PLAYER_ID } from "../src/samples/index.ts";
import { encryptAesCbc } from "../src/save/index.ts";
import { encode } from "@msgpack/msgpack";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService, type RunningService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { intArg, latencySummary, runConcurrent } from "./lib.ts";

const root = process.argv.find((arg) => arg.startsWith("--root="))?.slice("--root=".length);
const { pair, env } = randomKeys();
const start = () => startService({ env: { ...env, NOTIFY_DEFAULT: "none" }, ...(root && { root }) });
const realSave = () => encryptAesCbc(encode(makeSampleSave({ seed: Date.now() % 100_000, now: Date.now() }), { useBigInt64: true }), pair.key, pair.iv);
const jobOf = (service: RunningService, uploadId: string) => {
  const db = service.openDb();
  try {
    return db.query("SELECT j.state FROM jobs j JOIN upload_tasks u ON u.save_id = j.save_id WHERE u.upload_id = ?").get(uploadId) as { state: string } | null;
  } finally {
    db.close();
  }
};

function drip(service: RunningService, path: string, headers: Record<string, string>) {
  const { port } = new URL(service.url);
  const socket = connect(Number(port), "127.0.0.1");
  socket.on("error", () => {});
  const head = Object.entries({ ...headers, "Content-Length": String(1024 * 1024) }).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${head}\r\n`);
  const timer = setInterval(() => socket.writable && socket.write("x"), 200);
  return () => {
    clearInterval(timer);
    socket.destroy();
  };
}

async function slowClients(): Promise<void> {
  const service = await start();
  const stops = [
    ...Array.from({ length: 8 }, (_, i) => drip(service, "/uploadSaveData", { "X-Upload-Id": `slow-${i}`, "X-Chunk-Index": "0", "X-Total-Chunks": "2" })),
    ...Array.from({ length: 2 }, () => drip(service, "/capture/report", { "Content-Encoding": "gzip" })),
  ];
  await Bun.sleep(300);
  const statuses: number[] = [];
  const times = await runConcurrent(30, 1, async (i) => {
    const response = await uploadSave(service.url, realSave(), `normal-${i}`, SAMPLE_PLAYER_ID);
    statuses.push(response.status);
    await response.text();
  });
  for (const stop of stops) stop();
  console.log(`1. 30 normal uploads beside 8 slow uploads and 2 slow reports: ${statuses.filter((s) => s === 200).length}/30 answered 200; ${latencySummary(times)}`);
  await service.stop();
  service.cleanup();
}

async function junkAhead(junk: number): Promise<void> {
  const service = await start();
  const timeToArchive = async (id: string) => {
    const sent = performance.now();
    await uploadSave(service.url, realSave(), id, SAMPLE_PLAYER_ID);
    await eventually(() => jobOf(service, id)?.state === "done", 300_000, id);
    return performance.now() - sent;
  };
  const alone = await timeToArchive("alone");
  const floodStarted = performance.now();
  await runConcurrent(junk, 8, async (i) => void (await (await uploadSave(service.url, randomBytes(16 * (1 + (i % 64))), `junk-${i}`)).text()));
  const floodMs = performance.now() - floodStarted;
  const behind = await timeToArchive("behind-junk");
  console.log(`2. real save alone: received → archived ${alone.toFixed(0)} ms; ${junk} junk uploads accepted in ${floodMs.toFixed(0)} ms, then a real save: ${behind.toFixed(0)} ms`);
  await service.stop();
  service.cleanup();
}

async function walAfter(uploads: number): Promise<void> {
  const service = await start();
  const walMb = () => (statSync(`${service.dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0) / 1024 / 1024;
  let peak = 0;
  await runConcurrent(uploads, 8, async (i) => {
    await (await uploadSave(service.url, randomBytes(16 * (1 + (i % 8))), `wal-${i}`)).text();
    if (i % 500 === 0) peak = Math.max(peak, walMb());
  });
  const atEnd = walMb();
  await Bun.sleep(3000);
  await (await uploadSave(service.url, randomBytes(16), "wal-last")).text();
  console.log(`3. WAL after ${uploads} uploads: ${atEnd.toFixed(1)} MB (peak sampled ${peak.toFixed(1)} MB); 3 s later and one more upload: ${walMb().toFixed(1)} MB`);
  await service.stop();
  service.cleanup();
}

await slowClients();
await junkAhead(intArg("junk", 2000));
await walAfter(intArg("uploads", 20_000));
