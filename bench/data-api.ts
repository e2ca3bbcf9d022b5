/**
 * The data API's cost on the real server, as lunabot reads a ~200 KB save: the first read once the save is
 * archived, the first read after a restart, 200 reads each plain, gzip, zstd and filtered, and a save with no
 * stored JSON (archived before save.json.gz existed): its first read builds the JSON, later ones are cached.
 * `bun bench/data-api.ts [--root <checkout>]` (another checkout's server, e.g. the one before a change).
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { makeEncryptedSample, randomKeys, SAMPLE_PLAYER_ID } from "../src/samples/index.ts";
import { eventually } from "../scripts/lib/eventually.ts";
import { startService, type RunningService } from "../scripts/lib/service-process.ts";
import { uploadSave } from "../scripts/lib/upload-client.ts";
import { latencySummary, runConcurrent } from "./lib.ts";

const rootAt = process.argv.indexOf("--root");
const root = rootAt > 0 ? process.argv[rootAt + 1] : undefined;
const { pair, env } = randomKeys();
const serviceEnv = { ...env, NOTIFY_DEFAULT: "none", API_RATE_PER_MINUTE: "100000" };
let service: RunningService = await startService({ env: serviceEnv, root });
try {
  const save = makeEncryptedSample(pair, { seed: 3, now: Date.now() });
  await uploadSave(service.url, save, "bench-api");
  const db = service.openDb();
  await eventually(() => db.query("SELECT 1 FROM archives").get(), 60_000, "the save archived");
  db.close();
  const cli = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "src", "cli.ts"), "api-tokens", "add", "bench"], { env: { ...process.env, DATA_DIR: service.dataDir } });
  const token = cli.stdout.toString().trim().split("\n").at(-1)!;
  const read = async (query = "", headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}/api/jp/user/${SAMPLE_PLAYER_ID}/mysekai${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
    return (await response.arrayBuffer()).byteLength;
  };
  const firstRead = async (label: string) => {
    const started = performance.now();
    const bytes = await read();
    console.log(`${label}: ${(performance.now() - started).toFixed(1)} ms, ${bytes} B of JSON from a ${save.byteLength} B save`);
  };
  const reads = async (label: string, query: string, headers: Record<string, string> = {}) => {
    await read(query, headers);
    const times = await runConcurrent(200, 1, async () => void (await read(query, headers)));
    console.log(`200 reads, ${label}: ${latencySummary(times)}`);
  };

  await firstRead("first read");
  await reads("identity", "");
  await reads("gzip", "", { "accept-encoding": "gzip" });
  await reads("zstd", "", { "accept-encoding": "zstd" });
  await reads("filter=updatedResources", "?filter=updatedResources");

  await service.stop();
  service = await startService({ env: serviceEnv, root, dataDir: service.dataDir });
  await firstRead("first read after a restart");

  const writable = new Database(service.dbPath);
  writable.run(`UPDATE archives SET files = (SELECT json_group_array(value) FROM json_each(files) WHERE value != 'save.json.gz')`);
  writable.close();
  await firstRead("first read of a save without stored JSON (build)");
  await reads("identity, JSON built on read", "");
} finally {
  await service.stop();
  service.cleanup();
}
