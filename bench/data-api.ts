/**
 * The data API's cost on the real server: the first read of a ~200 KB save (decrypt, decode, build the JSON)
 * and 200 cached reads, plain and gzip, as lunabot makes them. `bun bench/data-api.ts`
 */
import { join } from "node:path";
import { makeEncryptedSample, randomKeys, SAMPLE_PLAYER_ID } from "../src/samples/index.ts";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { latencySummary, runConcurrent } from "./lib.ts";

const { pair, env } = randomKeys();
const service = await startService({ env: { ...env, NOTIFY_DEFAULT: "none", API_RATE_PER_MINUTE: "100000" } });
try {
  const save = makeEncryptedSample(pair, { seed: 3, now: Date.now() });
  await uploadSave(service.url, save, "bench-api");
  const db = service.openDb();
  await eventually(() => db.query("SELECT 1 FROM archives").get(), 60_000, "the save archived");
  db.close();
  const cli = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "src", "cli.ts"), "api-tokens", "add", "bench"], { env: { ...process.env, DATA_DIR: service.dataDir } });
  const token = cli.stdout.toString().trim().split("\n").at(-1)!;
  const url = `${service.url}/api/jp/user/${SAMPLE_PLAYER_ID}/mysekai`;
  const read = async (headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
    return (await response.arrayBuffer()).byteLength;
  };
  const started = performance.now();
  const bytes = await read();
  console.log(`first read (build): ${(performance.now() - started).toFixed(1)} ms, ${bytes} B of JSON from a ${save.byteLength} B save`);
  for (const [label, headers] of [["identity", {}], ["gzip", { "accept-encoding": "gzip" }]] as const) {
    await read(headers);
    const times = await runConcurrent(200, 1, async () => void (await read(headers)));
    console.log(`200 cached reads, ${label}: ${latencySummary(times)}`);
  }
} finally {
  await service.stop();
  service.cleanup();
}
