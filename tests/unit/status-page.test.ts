import { afterAll, expect, test } from "bun:test";
import { OWNER_PLAYER, ownerApp } from "../helpers/owner-app.ts";

const UPLOAD_TOKEN = "upload-secret-4242424242";
const app = ownerApp({ UPLOAD_TOKEN });
afterAll(() => app.cleanup());

test("a failed job shows its redacted error, and its retry button queues it again", async () => {
  const { id: saveId } = app.db.$client.query("SELECT id FROM saves").get() as { id: number };
  app.db.$client.query("UPDATE jobs SET state = 'failed', stage = 'archive', last_error = ? WHERE save_id = ?").run(`disk said ${UPLOAD_TOKEN}`, saveId);

  const page = await (await app.request("/", {}, "127.0.0.1")).text();
  expect(page).toContain(OWNER_PLAYER);
  expect(page).toContain("disk said");
  expect(page).not.toContain(UPLOAD_TOKEN);
  expect(page).toContain(`<input type="hidden" name="save" value="${saveId}"/>`);

  const retry = await app.request("/status/retry", { method: "POST", headers: { origin: "http://localhost:9478", "content-type": "application/x-www-form-urlencoded" }, body: `save=${saveId}` }, "127.0.0.1");
  expect(retry.status).toBe(303);
  expect(retry.headers.get("location")).toBe("/");
  expect(app.db.$client.query("SELECT state, stage FROM jobs WHERE save_id = ?").get(saveId)).toEqual({ state: "pending", stage: "archive" });

  const bad = await app.request("/status/retry", { method: "POST", headers: { origin: "http://localhost:9478" }, body: "save=1;DROP" }, "127.0.0.1");
  expect(bad.status).toBe(400);
});

test("a retry form past the size cap is refused, never taken as 'retry everything'", async () => {
  const { id: saveId } = app.db.$client.query("SELECT id FROM saves").get() as { id: number };
  app.db.$client.query("UPDATE jobs SET state = 'failed', stage = 'archive' WHERE save_id = ?").run(saveId);
  const headers = { origin: "http://localhost:9478", "content-type": "application/x-www-form-urlencoded" };
  const huge = await app.request("/status/retry", { method: "POST", headers, body: `pad=${"x".repeat(5000)}&save=${saveId}` }, "127.0.0.1");
  expect(huge.status).toBe(413);
  expect(app.db.$client.query("SELECT state FROM jobs WHERE save_id = ?").get(saveId)).toEqual({ state: "failed" });
});
