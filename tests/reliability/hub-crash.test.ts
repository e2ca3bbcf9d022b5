/**
 * Crash in hub mode (issue 23, point 4): two real processes on one PostgreSQL and one bucket. A claims a save's
 * job and is SIGKILLed in the middle of writing its archive (its bucket endpoint is a proxy that lets the marker
 * through and holds the first file); B, started after, takes the job over once A's lease has expired, and the save
 * ends archived exactly once (one archives row, one folder in the bucket) and pushed exactly once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { MARKER } from "../../src/archive/layout.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";
import { eventually, serversForThisFile } from "../helpers/server.ts";
import { pgReads } from "../helpers/store-reads.ts";
import { startStallingProxy, type StallingProxy } from "../helpers/stalling-s3-proxy.ts";
import { swiftBucket, swiftSkipReason, type SwiftBucket } from "../helpers/swift.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

const HOOK = "/push";
const LEASE_MS = 2500;
const start = serversForThisFile();
const skip = POSTGRES_MISSING ?? swiftSkipReason;

describe.skipIf(skip !== null)("hub mode: a process killed mid-archive", () => {
  const { pair, env: keys } = testKeys();
  let url: string;
  let bucket: SwiftBucket;
  let sql: postgres.Sql;
  let pushes: RecordingServer;
  let proxy: StallingProxy;

  beforeAll(async () => {
    [url, bucket] = await Promise.all([databaseForThisFile("empty"), swiftBucket()]);
    pushes = await startRecordingServer();
    // Everything passes but an archive file's PUT (the marker, written first, reaches the bucket).
    proxy = await startStallingProxy(bucket.endpoint, (method, path) => method === "PUT" && path.includes("/archive/") && !path.endsWith(`/${MARKER}`));
    sql = postgres(url, { max: 2, onnotice: () => {} });
  }, 180_000);
  afterAll(async () => {
    await sql?.end();
    await pushes?.stop();
    await proxy?.stop();
  });

  const env = (endpoint: string) => ({
    ...keys,
    S3_ENDPOINT: endpoint,
    S3_REGION: bucket.region,
    S3_ACCESS_KEY_ID: bucket.accessKeyId,
    S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    ...hubSettings(url),
    ARCHIVE_URL: `s3://${bucket.bucket}/hub`,
    JOB_LEASE_MS: String(LEASE_MS),
    NOTIFY_TIMEOUT_MS: "1000",
    NOTIFY_DEFAULT: "webhook",
    WEBHOOK_URL: `${pushes.url}${HOOK}`,
  });
  const jobOf = (saveId: number) => pgReads(sql).jobLease(saveId);

  test("B takes the job over after A's lease expires: one archives row, one folder, one push", async () => {
    const a = await start(env(proxy.url));
    expect((await uploadSave(a.url, encryptedSave(pair), "crash-1")).status).toBe(200);
    const saveId = (await pgReads(sql).saveOfUpload("crash-1"))!;
    await eventually(() => proxy.stalled.length > 0, 60_000, "A writing the archive's first file");
    await a.stop("SIGKILL");
    // Read after the kill: A renewed its lease while it waited on the bucket.
    const held = (await jobOf(saveId))!;
    expect(held.state).toBe("running");

    const client = new Bun.S3Client({ ...bucket });
    const keysIn = async () => ((await client.list({ prefix: "hub/archive/" })).contents ?? []).map((object) => object.key);
    // The crash left a folder with A's marker and nothing else: B must finish that folder, not make another.
    const left = await keysIn();
    expect(left).toHaveLength(1);
    expect(left[0]!.endsWith(`/${MARKER}`)).toBe(true);

    await start(env(bucket.endpoint));
    await eventually(async () => (await jobOf(saveId))?.state === "done", 60_000, "B finishing the save's job");
    const done = (await jobOf(saveId))!;
    expect(done.updated_at).toBeGreaterThan(held.lease_expires_at!);

    const archives = (await pgReads(sql).archives()).filter((archive) => archive.save_id === saveId);
    expect(archives).toHaveLength(1);
    const folders = new Set((await keysIn()).map((key) => key.slice(0, key.lastIndexOf("/"))));
    expect([...folders]).toEqual([`hub/archive/${archives[0]!.rel_path}`]);
    expect(await client.exists(`hub/archive/${archives[0]!.rel_path}/save.bin`)).toBe(true);
    expect(pushes.requestsTo(HOOK)).toHaveLength(1);
    expect((await pgReads(sql).pushes(saveId)).map((push) => push.state)).toEqual(["sent"]);
  }, 150_000);
});
