/**
 * The decode budget is held by bytes that arrived (or are being decoded), never by what a header declares;
 * bodies must keep a pace; one peer holds at most a share. Slow and patient clients cannot starve the others.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { ByteBudget } from "../../src/http/byte-budget.ts";
import { eventually, serversForThisFile } from "../helpers/server.ts";

const MIB = 1024 * 1024;

/** A valid HAR without entries, `size` bytes of JSON made mostly of random text (it compresses little), gzipped. */
const paddedHar = (size: number) =>
  Bun.gzipSync(`{"log":{"entries":[],"comment":"${randomBytes(size).toString("base64").slice(0, size - 36)}"}}`);

const chunkHeaders = (id: string, total = 1) => ({ "X-Upload-Id": id, "X-Chunk-Index": "0", "X-Total-Chunks": String(total) });

/** Sends `bytes` in two halves with `holdMs` between them. */
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

/** A client that declares `declared` bytes and sends one byte every `everyMs`; `answer` is its status line, if any. */
function drip(base: string, path: string, headers: Record<string, string>, declared: number, everyMs: number) {
  const { hostname, port } = new URL(base);
  const socket: Socket = connect(Number(port), hostname);
  let received = "";
  socket.on("data", (data) => (received += data.toString("latin1")));
  socket.on("error", () => {});
  const head = Object.entries({ ...headers, "Content-Length": String(declared) }).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${head}\r\n`);
  const timer = setInterval(() => socket.writable && socket.write("x"), everyMs);
  return {
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
    close: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

const start = serversForThisFile();

describe("ByteBudget", () => {
  test("first come, first served; a waiter that times out gets false and unblocks the ones behind it", async () => {
    const budget = new ByteBudget(10);
    const first = budget.open();
    expect(await first.reserve(6, 0)).toBe(true);
    const big = budget.open().reserve(8, 50); // cannot fit while `first` holds 6
    const smallAccount = budget.open();
    const small = smallAccount.reserve(2, 1000); // would fit, but waits behind `big` (FIFO)
    expect(budget.inUse).toBe(6);
    expect(await big).toBe(false);
    expect(await small).toBe(true);
    expect(budget.inUse).toBe(8);
    first.close();
    first.close(); // closing twice gives back once
    smallAccount.close();
    expect(budget.inUse).toBe(0);
  });

  test("holders that all wait for more room do not wait for each other: the oldest goes past the budget", async () => {
    const budget = new ByteBudget(10);
    const [a, b] = [budget.open(), budget.open()];
    expect(await a.reserve(5, 0)).toBe(true);
    expect(await b.reserve(5, 0)).toBe(true);
    const strangerAccount = budget.open();
    const stranger = strangerAccount.reserve(1, 5000); // holds nothing: it waits its turn
    const aMore = a.reserve(5, 5000);
    const bMore = b.reserve(5, 5000); // now every holder waits: `a`, the oldest holder, is let through
    expect(await aMore).toBe(true);
    expect(budget.inUse).toBe(15);
    a.close();
    expect(await stranger).toBe(true); // first in the queue
    strangerAccount.close();
    expect(await bMore).toBe(true);
    b.close();
    expect(budget.inUse).toBe(0);
  });
});

describe("slow and patient clients", () => {
  test("8 slow uploads and 2 slow reports from one peer leave every normal upload answered 200 at once", async () => {
    // Before: each slow body reserved what it declared (8 × 1 MiB = the whole budget), and every real upload
    // waited DECODE_WAIT_MS and got 503.
    const server = await start({ DECODE_WAIT_MS: "5000" });
    const slow = [
      ...Array.from({ length: 8 }, (_, i) => drip(server.url, "/uploadSaveData", chunkHeaders(`slow-${i}`, 2), MIB, 200)),
      ...Array.from({ length: 2 }, () => drip(server.url, "/capture/report", { "Content-Encoding": "gzip" }, MIB, 200)),
    ];
    try {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        const response = await fetch(`${server.url}/uploadSaveData`, { method: "POST", body: randomBytes(200_000 - 8), headers: chunkHeaders(`real-${i}`) });
        times.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
      // A 200 KB upload takes a few ms; waiting for room took DECODE_WAIT_MS before.
      expect(Math.max(...times)).toBeLessThan(2500);
      expect(slow.every((client) => client.status() === 0)).toBe(true); // still dripping, not refused
    } finally {
      for (const client of slow) client.close();
    }
  });

  test("a body that falls below the minimum rate in a window is dropped with 408 and a logged reason", async () => {
    const server = await start({ BODY_RATE_WINDOW_SECONDS: "0.5", BODY_MIN_BYTES_PER_SECOND: "2000" });
    const slowOne = drip(server.url, "/uploadSaveData", chunkHeaders("too-slow"), 100_000, 50); // 20 B/s
    try {
      await eventually(() => slowOne.status() === 408, 10_000, "the slow body's 408");
      await server.waitForOutput(/\[UPLOAD\] WARN body refused .*status=408 reason="request body arrived too slowly"/);
    } finally {
      slowOne.close();
    }
    // 8 KB/s over 1.5 s keeps the pace: answered as usual.
    const steady = new Uint8Array(12_000).fill(3);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (let offset = 0; offset < steady.length; offset += 2000) {
          controller.enqueue(steady.subarray(offset, offset + 2000));
          await Bun.sleep(250);
        }
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/uploadSaveData`, { method: "POST", body, headers: chunkHeaders("steady"), duplex: "half" } as RequestInit);
    expect(response.status).toBe(200);
  });

  test("a body that is not whole by the deadline is dropped, however steadily it comes", async () => {
    const server = await start({ BODY_DEADLINE_SECONDS: "1", BODY_MIN_BYTES_PER_SECOND: "1" });
    const patient = drip(server.url, "/capture/report", {}, 100_000, 20);
    try {
      await eventually(() => patient.status() === 408, 10_000, "the patient body's 408");
    } finally {
      patient.close();
    }
  });
});

describe("bytes in flight are bounded, per server and per peer", () => {
  test("a flood of large reports: the overflow gets 503 + Retry-After, the rest 200, and all pass afterwards", async () => {
    // Budget 1 MiB; each report sends 256 KiB, waits, sends the rest, then decodes up to 0.5 MiB.
    const server = await start({ DECODE_BUDGET_MB: "1", DECODE_WAIT_MS: "150", REPORT_MAX_SIZE: "0.5", REPORT_MAX_DECOMPRESSED_SIZE: "0.5", PEER_SHARE: "1" });
    const reportUrl = `${server.url}/capture/report`;
    const gz = paddedHar(MIB / 2 - 1024);
    const gzip = { "content-encoding": "gzip", "content-type": "application/json" };
    const answers = await Promise.all(Array.from({ length: 10 }, () => slowPost(reportUrl, gz, gzip, 700)));
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(5);
    for (const response of answers.filter((answer) => answer.status === 503)) {
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.text()).toBe("server is busy with other uploads; try again shortly");
    }
    await server.waitForOutput(/\[REPORT\] WARN rejected: decode budget full status=503/);
    expect((await fetch(reportUrl, { method: "POST", body: gz, headers: gzip })).status).toBe(200);
    expect((await fetch(`${server.url}/uploadSaveData`, { method: "POST", body: new Uint8Array(1008).fill(1), headers: chunkHeaders("after") })).status).toBe(200);
  });

  test("a client that aborts mid-body gives its bytes back", async () => {
    const server = await start({ DECODE_BUDGET_MB: "0.5", DECODE_WAIT_MS: "2000", REPORT_MAX_SIZE: "0.5", REPORT_MAX_DECOMPRESSED_SIZE: "0.5" });
    const reportUrl = `${server.url}/capture/report`;
    const gz = paddedHar(400_000);
    const gzip = { "content-encoding": "gzip", "content-type": "application/json" };
    for (let round = 0; round < 3; round++) {
      const abort = new AbortController();
      const aborted = slowPost(reportUrl, gz, gzip, 5000, abort.signal).catch(() => null);
      await Bun.sleep(150);
      abort.abort();
      await aborted;
    }
    const started = performance.now();
    expect((await fetch(reportUrl, { method: "POST", body: gz, headers: gzip })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("one peer holds at most its share and its number of open bodies; another peer is served meanwhile", async () => {
    // Behind a trusted local proxy, X-Forwarded-For names the peer (documentation addresses: nothing is sent there).
    // A long rate window: the dripping bodies below stay open for the whole test, however busy the machine.
    const server = await start({ TRUST_PROXY: "1", DECODE_BUDGET_MB: "1", DECODE_WAIT_MS: "200", PEER_SHARE: "0.5", PEER_MAX_BODIES: "4", BODY_RATE_WINDOW_SECONDS: "120" });
    const from = (peer: string, id: string) => ({ ...chunkHeaders(id, 2), "X-Forwarded-For": peer });
    const holder = slowPost(`${server.url}/uploadSaveData`, new Uint8Array(800_000).fill(5), from("192.0.2.1", "hold"), 3000);
    await Bun.sleep(800); // its first 400 KB are in (the rest comes 3 s after them)
    // Its own share is full: it waits for itself (DECODE_WAIT_MS), then gets 429.
    const over = await fetch(`${server.url}/uploadSaveData`, { method: "POST", body: new Uint8Array(300_000).fill(6), headers: from("192.0.2.1", "over") });
    expect(over.status).toBe(429);
    expect(await over.text()).toBe("too many bytes in flight from your address; try again shortly");
    expect(over.headers.get("retry-after")).toBe("1");
    const other = await fetch(`${server.url}/uploadSaveData`, { method: "POST", body: new Uint8Array(300_000).fill(7), headers: from("198.51.100.7", "other") });
    expect(other.status).toBe(200);
    expect((await holder).status).toBe(200);

    // Five bodies at once from one peer: whichever comes last is refused, the other four stay open.
    const open = Array.from({ length: 5 }, (_, i) => drip(server.url, "/uploadSaveData", from("192.0.2.9", `open-${i}`), 100_000, 20));
    try {
      await eventually(() => open.filter((client) => client.status() === 429).length === 1, 30_000, "one of five open bodies refused");
      expect(open.map((client) => client.status()).sort()).toEqual([0, 0, 0, 0, 429]);
      await server.waitForOutput(/rejected: too many open bodies from this peer status=429 open=4/);
    } finally {
      for (const client of open) client.close();
    }
  });
});
