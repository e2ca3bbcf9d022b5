/** Hub mode's archives: the in-process service with ARCHIVE_URL on a real Swift (s3api), from upload to /maps. */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serversForThisFile } from "../helpers/in-process.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { swiftBucket, swiftSkipReason, type SwiftBucket } from "../helpers/swift.ts";

const start = serversForThisFile();
if (swiftSkipReason !== null) console.warn(swiftSkipReason);

describe.skipIf(swiftSkipReason !== null)("archives in a bucket (ARCHIVE_URL=s3://…)", () => {
  let bucket: SwiftBucket;
  beforeAll(async () => {
    bucket = await swiftBucket();
  }, 180_000);

  test("an upload is archived in the bucket, its maps are served from it (a missing one is 404), and no secret reaches the log", async () => {
    const { pair, env } = testKeys();
    const server = await start({
      ...env,
      ARCHIVE_URL: `s3://${bucket.bucket}/hub/eu`,
      S3_ENDPOINT: bucket.endpoint,
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    });
    expect((await uploadSave(server.url, encryptedSave(pair), "s3-1")).status).toBe(200);
    const saveId = (await reads(server).saveOfUpload("s3-1"))!;
    await jobReaches(server, saveId, "done", 30_000, "the save's job done");

    const archive = (await reads(server).archive(saveId))!;
    expect(archive.rel_path).toMatch(new RegExp(`^by-id/${PLAYER_ID}/\\d{8}_\\d{6}$`));
    const files = archive.files;
    const pngs = files.filter((name) => name.endsWith(".png"));
    expect(files).toContain("save.bin");
    expect(pngs.length).toBeGreaterThan(0);
    const client = new Bun.S3Client({ ...bucket });
    const key = (name: string) => `hub/eu/archive/${archive.rel_path}/${name}`;
    for (const name of files) expect(await client.exists(key(name))).toBe(true);
    expect(existsSync(join(server.dataDir, "archive", "by-id"))).toBe(false);

    for (const name of pngs) {
      const response = await fetch(`${server.url}/maps/${archive.token}/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await client.file(key(name)).arrayBuffer()));
    }
    // Listed in the row but gone from the bucket: not found, never a 5xx.
    await client.delete(key(pngs[0]!));
    const gone = await fetch(`${server.url}/maps/${archive.token}/${pngs[0]}`);
    expect([gone.status, await gone.text()]).toEqual([404, "not found"]);

    const log = server.output();
    expect(log).toContain(`s3://${bucket.bucket}/hub/eu`);
    expect(log).not.toContain(bucket.secretAccessKey);
  }, 60_000);
});
