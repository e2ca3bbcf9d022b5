/**
 * The boundary under cheap hostile input, on the real server (issue 9's numbers):
 *   1. peak RSS while 48 small gzip'd reports, each decoding to the 4 MiB cap, arrive at once;
 *   2. the worst /healthz latency while a gzip'd report of 100,000 tiny entries arrives;
 *   3. upload → job failed for a save with 10,000 drops on one site (made with the test key);
 *   4. received → archived of a normal save uploaded right behind three saves with 200,000-character strings.
 * `bun bench/boundary.ts`
 */
import { encode } from "@msgpack/msgpack";
import { makeSampleSave, randomKeys, SAMPLE_PLAYER_ID } from "../src/samples/index.ts";
import { encryptAesCbc } from "../src/save/index.ts";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService } from "../scripts/lib/service-process.ts";
import { saveUrl, uploadSave } from "../scripts/lib/upload-client.ts";
import { peakRssMb, runConcurrent } from "./lib.ts";

const { pair, env } = randomKeys();
// REPORT_MAX_SIZE=2: a save with 10,000 drops is ~1.05 MB, past the 1 MiB upload cap; it can only come as a larger report.
const service = await startService({ env: { ...env, NOTIFY_DEFAULT: "none", REPORT_MAX_SIZE: "2" } });
const db = service.openDb();
const report = (body: Uint8Array) =>
  fetch(`${service.url}/capture/report`, { method: "POST", body: body as Uint8Array<ArrayBuffer>, headers: { "content-encoding": "gzip" } });
const statusCounts = (statuses: number[]) => JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])));

// 1. 48 concurrent gzip'd reports, each a JSON text of 4 MiB: one that compresses 1000× (refused by the ratio
// cap) and one of two random letters that compresses ~7× (decoded in full, so only the budget bounds it).
const jsonOf = (pad: string) => new TextEncoder().encode(`{"log":{"entries":[]},"pad":"${pad}"}`);
const letters = Array.from({ length: 4 * 1024 * 1024 - 40 }, () => (Math.random() < 0.5 ? "a" : "b")).join("");
for (const [label, body] of [
  ["1000x", Bun.gzipSync(jsonOf("a".repeat(4 * 1024 * 1024 - 40)), { level: 9 })],
  ["7x", Bun.gzipSync(jsonOf(letters), { level: 9 })],
] as const) {
  const before = peakRssMb(service.pid);
  const statuses: number[] = [];
  await runConcurrent(48, 48, async () => {
    const response = await report(body);
    statuses.push(response.status);
    await response.text();
  });
  console.log(`1. 48 concurrent ${label} reports of ${body.byteLength} B gzip decoding to 4 MiB: statuses ${statusCounts(statuses)}; server peak RSS ${before} → ${peakRssMb(service.pid)} MB`);
}

// 2. 100,000 tiny entries while /healthz is probed.
const entries = Array.from({ length: 100_000 }, () => ({ request: { url: "u" }, response: {} }));
const tiny = Bun.gzipSync(new TextEncoder().encode(JSON.stringify({ log: { entries } })));
let probing = true;
let worstMs = 0;
const probe = (async () => {
  while (probing) {
    const started = performance.now();
    await (await fetch(`${service.url}/healthz`)).text();
    worstMs = Math.max(worstMs, performance.now() - started);
    await Bun.sleep(2);
  }
})();
await Bun.sleep(50);
const sent = performance.now();
const tinyResponse = await report(tiny);
const answerMs = performance.now() - sent;
await Bun.sleep(50);
probing = false;
await probe;
console.log(`2. report of 100,000 tiny entries (${tiny.byteLength} B gzip): ${tinyResponse.status} ${await tinyResponse.text()} in ${answerMs.toFixed(1)} ms; worst /healthz ${worstMs.toFixed(1)} ms`);

// 3. and 4. hostile saves made with the key.
const encrypt = (raw: unknown) => encryptAesCbc(encode(raw, { useBigInt64: true }), pair.key, pair.iv);
/** A bare save with one site (no filler tables, so 10,000 drops still fit in one 1 MiB upload). */
const withDrops = (drops: Record<string, unknown>[]) => ({
  updatedResources: { userMysekaiHarvestMaps: [{ mysekaiSiteId: 5, userMysekaiSiteHarvestResourceDrops: drops }] },
});
const drop = (i: number, resourceType = "mysekai_material") => ({ resourceType, resourceId: 1 + (i % 30), positionX: i % 40, positionZ: (i / 40) | 0, mysekaiSiteHarvestResourceDropStatus: "before_drop" });
const harWith = (body: Uint8Array) =>
  Bun.gzipSync(new TextEncoder().encode(JSON.stringify({ log: { entries: [{ request: { url: saveUrl() }, response: { content: { text: Buffer.from(body).toString("base64"), encoding: "base64" } } }] } })));
const reportJob = () =>
  db.query("SELECT j.state, j.attempts, j.last_error FROM jobs j JOIN reports r ON r.save_id = j.save_id ORDER BY r.id DESC LIMIT 1").get() as
    | { state: string; attempts: number; last_error: string | null }
    | null;
const jobOf = (uploadId: string) =>
  db.query("SELECT j.state, j.attempts, j.last_error FROM jobs j JOIN upload_tasks u ON u.save_id = j.save_id WHERE u.upload_id = ?").get(uploadId) as
    | { state: string; attempts: number; last_error: string | null }
    | null;

const many = encrypt(withDrops(Array.from({ length: 10_000 }, (_, i) => ({ ...drop(i), mysekaiSiteHarvestResourceDropStatus: "b" }))));
const manyStarted = performance.now();
const manyUpload = await uploadSave(service.url, many, "bench-10000-drops");
const manyResponse = await report(harWith(many));
const failed = await eventually(() => (reportJob()?.state === "failed" ? reportJob() : null), 60_000, "the 10,000-drop save to fail");
console.log(
  `3. save with 10,000 drops (${many.byteLength} B): upload ${manyUpload.status} ${await manyUpload.text()}; as a report ${manyResponse.status}, its save job failed ${(performance.now() - manyStarted).toFixed(0)} ms after the upload started, attempts ${failed.attempts}: ${failed.last_error}`,
);

for (let i = 0; i < 3; i++) await uploadSave(service.url, encrypt(withDrops([drop(i, "x".repeat(200_000))])), `bench-huge-${i}`);
const normal = encrypt(makeSampleSave({ seed: Date.now() % 100_000, now: Date.now() }));
const normalStarted = performance.now();
await uploadSave(service.url, normal, "bench-normal", SAMPLE_PLAYER_ID);
await eventually(() => jobOf("bench-normal")?.state === "done", 60_000, "the normal save");
const hugeStates = [0, 1, 2].map((i) => jobOf(`bench-huge-${i}`)?.state ?? "none");
console.log(`4. normal save behind three saves with 200,000-character strings (${hugeStates.join(", ")}): received → done in ${(performance.now() - normalStarted).toFixed(0)} ms`);

db.close();
await service.stop();
service.cleanup();
