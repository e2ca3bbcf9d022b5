/**
 * The decode budget: bytes reserved by in-flight upload and report requests are bounded; a request that finds
 * no room within DECODE_WAIT_MS gets 503 with Retry-After, every other request is answered as usual.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { ByteBudget } from "../../src/http/guards.ts";
import { serversForThisFile } from "../helpers/server.ts";

const MIB = 1024 * 1024;

/** A valid HAR without entries, `size` bytes of JSON made mostly of random text (it compresses little), gzipped. */
const paddedHar = (size: number) =>
  Bun.gzipSync(`{"log":{"entries":[],"comment":"${randomBytes(size).toString("base64").slice(0, size - 36)}"}}`);

/** Sends `bytes` in two halves with `holdMs` between them: the request holds its reservation meanwhile. */
function slowPost(url: string, bytes: Uint8Array, headers: Record<string, string>, holdMs: number, signal?: AbortSignal) {
  const half = Math.floor(bytes.byteLength / 2);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      controller.enqueue(bytes.subarray(0, half));
      await Bun.sleep(holdMs);
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
  return fetch(url, { method: "POST", body, headers, signal, duplex: "half" } as RequestInit);
}

const rssMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

const start = serversForThisFile();

describe("ByteBudget", () => {
  test("first come, first served; a waiter that times out gets null and unblocks the ones behind it", async () => {
    const budget = new ByteBudget(10);
    const first = (await budget.reserve(6, 0))!;
    const big = budget.reserve(8, 50); // cannot fit while `first` holds 6
    const small = budget.reserve(2, 1000); // would fit, but waits behind `big` (FIFO)
    expect(budget.inUse).toBe(6);
    expect(await big).toBeNull();
    const smallRelease = (await small)!;
    expect(budget.inUse).toBe(8);
    first();
    first(); // releasing twice gives back once
    smallRelease();
    expect(budget.inUse).toBe(0);
    const whole = (await budget.reserve(1000, 0))!; // larger than the budget: runs alone
    expect(budget.inUse).toBe(10);
    whole();
  });
});

describe("decoded bytes in flight are bounded", () => {
  test("a flood of slow reports and uploads: the overflow gets 503 + Retry-After, the rest 200, and all pass afterwards", async () => {
    // Decoded cap 0.5 MiB per report, budget 1 MiB: two reports (or one report and 512 KiB of uploads) at once.
    const server = await start({ DECODE_BUDGET_MB: "1", DECODE_WAIT_MS: "150", REPORT_MAX_SIZE: "0.5", REPORT_MAX_DECOMPRESSED_SIZE: "0.5" });
    const reportUrl = `${server.url}/capture/report`;
    const gz = paddedHar(MIB / 2 - 1024);
    const gzip = { "content-encoding": "gzip", "content-type": "application/json" };
    const reports = Array.from({ length: 10 }, () => slowPost(reportUrl, gz, gzip, 700));
    await Bun.sleep(100);
    const upload = slowPost(`${server.url}/uploadSaveData`, new Uint8Array(300_000).fill(7), { "X-Upload-Id": "budget-1", "X-Chunk-Index": "0", "X-Total-Chunks": "2" }, 10);
    const answers = await Promise.all([...reports, upload]);
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 503)).toHaveLength(9);
    for (const response of answers.filter((answer) => answer.status === 503)) {
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.text()).toBe("server is busy with other uploads; try again shortly");
    }
    await server.waitForOutput(/\[REPORT\] WARN rejected: decode budget full status=503/);

    // Room again: a report and an upload pass at once.
    expect((await fetch(reportUrl, { method: "POST", body: gz, headers: gzip })).status).toBe(200);
    const chunk = await fetch(`${server.url}/uploadSaveData`, {
      method: "POST",
      body: new Uint8Array(1000).fill(1),
      headers: { "X-Upload-Id": "budget-2", "X-Chunk-Index": "0", "X-Total-Chunks": "2" },
    });
    expect(chunk.status).toBe(200);
    expect(rssMb(server.pid)).toBeLessThan(300);
  });

  test("a client that aborts mid-body gives its reservation back", async () => {
    // Budget = one report: the next report can only pass if the aborted one released its bytes.
    const server = await start({ DECODE_BUDGET_MB: "0.5", DECODE_WAIT_MS: "2000", REPORT_MAX_SIZE: "0.5", REPORT_MAX_DECOMPRESSED_SIZE: "0.5" });
    const reportUrl = `${server.url}/capture/report`;
    const gz = paddedHar(100_000);
    const gzip = { "content-encoding": "gzip", "content-type": "application/json" };
    for (let round = 0; round < 3; round++) {
      const abort = new AbortController();
      const aborted = slowPost(reportUrl, gz, gzip, 5000, abort.signal).catch(() => null);
      await Bun.sleep(150);
      abort.abort();
      await aborted;
    }
    const started_ = performance.now();
    expect((await fetch(reportUrl, { method: "POST", body: gz, headers: gzip })).status).toBe(200);
    expect(performance.now() - started_).toBeLessThan(1500);
  });
});
