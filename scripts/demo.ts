/**
 * `bun run demo`: makes a realistic synthetic save with a random key, sends it through the real server and
 * pipeline (upload → generate → archive → notify), and prints where the maps are. No game data needed.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeEncryptedSample, randomKeys } from "../src/samples/index.ts";
import { eventually } from "./lib/eventually.ts";
import { startService } from "./lib/service-process.ts";
import { uploadSave } from "./lib/upload-client.ts";

// `bun run demo [dataDir] [--binary <executable>]`: the binary is the one-file build (`bun run build:binary`).
const args = process.argv.slice(2);
const binaryAt = args.indexOf("--binary");
const binary = binaryAt >= 0 ? resolve(args.splice(binaryAt, 2)[1] ?? "dist/mysekai-ingest") : undefined;
const dataDir = resolve(args[0] ?? "data/demo");
mkdirSync(dataDir, { recursive: true });
const { pair, env } = randomKeys();
const save = makeEncryptedSample(pair, { seed: Date.now() % 100_000, now: Date.now(), rareEverywhere: true });

console.log(`starting the service on a random port, data in ${dataDir}`);
const server = await startService({ dataDir, binary, env: { ...env, NOTIFY_DEFAULT: "none" } });
try {
  const uploadId = `demo-${Date.now()}`;
  const response = await uploadSave(server.url, save, uploadId);
  console.log(`POST /uploadSaveData (${(save.byteLength / 1024).toFixed(0)} KB encrypted save) → ${response.status} ${await response.text()}`);

  const db = server.openDb();
  const archive = await eventually(
    () =>
      db
        .query("SELECT a.rel_path AS relPath, a.files AS files FROM archives a JOIN upload_tasks u ON u.save_id = a.save_id WHERE u.upload_id = ?")
        .get(uploadId) as { relPath: string; files: string } | null,
    60_000,
    "the archive",
  );
  db.close();
  const folder = join(dataDir, "archive", archive.relPath);
  console.log(`\nmaps and summary archived in ${folder}:`);
  for (const name of JSON.parse(archive.files) as string[]) console.log(`  ${name}`);
  console.log(`\nrare_resources.txt:\n${await Bun.file(join(folder, "rare_resources.txt")).text()}`);
} finally {
  await server.stop();
}
