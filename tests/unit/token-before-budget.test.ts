/** A request without the right token is refused at once, before it waits for (or holds) room in the decode budget. */
import { afterAll, expect, test } from "bun:test";
import { ownerApp } from "../helpers/owner-app.ts";

const UPLOAD_TOKEN = "upload-token-0123456789";
const app = ownerApp({ UPLOAD_TOKEN, REPORT_TOKEN: "report-token-0123456789", DECODE_BUDGET_MB: "1", DECODE_WAIT_MS: "1500", PEER_SHARE: "1" });
afterAll(() => app.cleanup());

const uploadHeaders = (token?: string) => ({
  "x-upload-id": `u${Math.random().toString(36).slice(2)}`,
  "x-chunk-index": "0",
  "x-total-chunks": "1",
  "content-length": "1048576",
  ...(token === undefined ? {} : { "x-upload-token": token }),
});

test("with the budget full, a wrong upload or report token gets 401 at once; the right token waits its turn", async () => {
  // Sends 1 MiB, the whole budget, and holds it: the body never ends while the test runs.
  let hold!: ReadableStreamDefaultController<Uint8Array>;
  const endless = new ReadableStream<Uint8Array>({
    start: (controller) => {
      hold = controller;
      controller.enqueue(new Uint8Array(1_048_576));
    },
  });
  const holding = app.request("/uploadSaveData", { method: "POST", headers: uploadHeaders(UPLOAD_TOKEN), body: endless, duplex: "half" } as RequestInit);
  await Bun.sleep(20);

  const started = performance.now();
  const wrongUpload = await app.request("/uploadSaveData", { method: "POST", headers: uploadHeaders("wrong"), body: "x" });
  const wrongReport = await app.request("/capture/report", { method: "POST", headers: { "x-report-token": "wrong" }, body: "{}" });
  expect([wrongUpload.status, await wrongUpload.text()]).toEqual([401, "missing or wrong upload token"]);
  expect([wrongReport.status, await wrongReport.text()]).toEqual([401, "missing or wrong report token"]);
  expect(performance.now() - started).toBeLessThan(500);

  const waited = await app.request("/uploadSaveData", { method: "POST", headers: uploadHeaders(UPLOAD_TOKEN), body: "x" });
  expect(waited.status).toBe(503);

  hold.close();
  await holding;
});
