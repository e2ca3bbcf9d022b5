import { afterAll, expect, test } from "bun:test";
import { OWNER_PLAYER, ownerApp } from "../helpers/owner-app.ts";
import { dbReads } from "../helpers/store-reads.ts";
import { dbWrites } from "../helpers/store-writes.ts";

const UPLOAD_TOKEN = "upload-secret-4242424242";
const app = ownerApp({ UPLOAD_TOKEN });
const reads = dbReads(app.db);
const onlySave = async () => (await reads.saves())[0]!.save_id;
afterAll(() => app.cleanup());

test("a failed job shows its redacted error, and its retry button queues it again", async () => {
  const saveId = await onlySave();
  await dbWrites(app.db).jobFailed(saveId, "archive", `disk said ${UPLOAD_TOKEN}`);

  const page = await (await app.request("/", {}, "127.0.0.1")).text();
  expect(page).toContain(OWNER_PLAYER);
  expect(page).toContain("disk said");
  expect(page).not.toContain(UPLOAD_TOKEN);
  expect(page).toContain(`<input type="hidden" name="save" value="${saveId}"/>`);

  const retry = await app.request("/status/retry", { method: "POST", headers: { origin: "http://localhost:9478", "content-type": "application/x-www-form-urlencoded" }, body: `save=${saveId}` }, "127.0.0.1");
  expect(retry.status).toBe(303);
  expect(retry.headers.get("location")).toBe("/");
  expect(await reads.job(saveId)).toMatchObject({ state: "pending", stage: "archive" });

  const bad = await app.request("/status/retry", { method: "POST", headers: { origin: "http://localhost:9478" }, body: "save=1;DROP" }, "127.0.0.1");
  expect(bad.status).toBe(400);
});

test("a retry form past the size cap is refused, never taken as 'retry everything'", async () => {
  const saveId = await onlySave();
  await dbWrites(app.db).jobFailed(saveId, "archive");
  const headers = { origin: "http://localhost:9478", "content-type": "application/x-www-form-urlencoded" };
  const huge = await app.request("/status/retry", { method: "POST", headers, body: `pad=${"x".repeat(5000)}&save=${saveId}` }, "127.0.0.1");
  expect(huge.status).toBe(413);
  expect((await reads.job(saveId))?.state).toBe("failed");
});
