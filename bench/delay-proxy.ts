/**
 * The distance between a hub's processes and its stores (issue 46): a process of its own (so the load generator's
 * work never delays a byte) holding two proxies, one in front of PostgreSQL and one in front of the bucket, each
 * delaying both directions by half its round trip (tcp-tap.ts) and counting what passes (pg-wire-counter.ts,
 * s3-counter.ts). `bench/hub.ts --pg-rtt-ms=N --s3-rtt-ms=M` puts one in front of each deployment's stores.
 * Run alone: `bun bench/delay-proxy.ts --pg=PORT --s3=URL --pg-rtt-ms=N --s3-rtt-ms=M` prints its ports as one
 * JSON line, then answers each `counts` line on stdin with one JSON line; it ends when stdin closes.
 */
import type { Subprocess } from "bun";
import { startPgWireCounter, type WireCounts } from "./pg-wire-counter.ts";
import { startS3Counter, type S3Counts } from "./s3-counter.ts";
import { delayFor } from "./tcp-tap.ts";

export interface DistanceCounts {
  wire: WireCounts;
  s3: S3Counts;
  /** The mean delay actually added per chunk each way, ms. */
  served: { pg: { toServer: number; toClient: number }; s3: { toServer: number; toClient: number } };
}

export interface StoreDistance {
  pid: number;
  pgPort: number;
  s3Url: string;
  counts(): Promise<DistanceCounts>;
  stop(): Promise<void>;
}

export interface DistanceOptions {
  pgPort: number;
  s3Endpoint: string;
  pgRttMs: number;
  s3RttMs: number;
}

/** Starts the proxies in a child process. */
export async function startStoreDistance(options: DistanceOptions): Promise<StoreDistance> {
  const args = [`--pg=${options.pgPort}`, `--s3=${options.s3Endpoint}`, `--pg-rtt-ms=${options.pgRttMs}`, `--s3-rtt-ms=${options.s3RttMs}`];
  const child: Subprocess<"pipe", "pipe", "inherit"> = Bun.spawn([process.execPath, import.meta.path, ...args], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const lines = readLines(child.stdout);
  const first = await lines.next();
  if (first.done) throw new Error("delay proxy ended before it listened");
  const { pgPort, s3Url } = JSON.parse(first.value) as { pgPort: number; s3Url: string };
  // Without it the services cannot reach their stores and the run would wait for saves that never come: end it loudly.
  let stopping = false;
  void child.exited.then((code) => {
    if (stopping) return;
    console.error(`the delay proxy (pid ${child.pid}) ended mid-run: exit ${code}${child.signalCode ? `, ${child.signalCode}` : ""}`);
    process.exit(1);
  });
  return {
    pid: child.pid,
    pgPort,
    s3Url,
    counts: async () => {
      child.stdin.write("counts\n");
      child.stdin.flush();
      const line = await lines.next();
      if (line.done) throw new Error("delay proxy ended");
      return JSON.parse(line.value) as DistanceCounts;
    },
    stop: async () => {
      stopping = true;
      child.stdin.end();
      await child.exited;
    },
  };
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
      yield buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
    }
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    if (value === undefined) throw new Error(`--${name}= is required`);
    return value;
  };
  const wire = await startPgWireCounter(Number(arg("pg")), "127.0.0.1", delayFor(Number(arg("pg-rtt-ms"))));
  const s3 = await startS3Counter(arg("s3"), delayFor(Number(arg("s3-rtt-ms"))));
  console.log(JSON.stringify({ pgPort: wire.port, s3Url: s3.url }));
  for await (const line of console) {
    if (line.trim() === "counts") console.log(JSON.stringify({ wire: wire.snapshot(), s3: s3.snapshot(), served: { pg: wire.served(), s3: s3.served() } } satisfies DistanceCounts));
  }
  await Promise.all([wire.stop(), s3.stop()]);
  process.exit(0);
}

/** Per save between two readings: PostgreSQL's round trips and the bucket's requests by kind, and the distance served. */
export function describeCounts(before: DistanceCounts, after: DistanceCounts, saves: number): string {
  const per = (n: number) => (n / saves).toFixed(1);
  const roundTrips = after.wire.readyForQuery - before.wire.readyForQuery;
  const turns = after.wire.turns - before.wire.turns;
  const requests = Object.entries(after.s3)
    .map(([label, count]) => [label, count.requests - (before.s3[label]?.requests ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = requests.reduce((sum, [, n]) => sum + n, 0);
  const rtt = (way: { toServer: number; toClient: number }) => (way.toServer + way.toClient).toFixed(1);
  return `PostgreSQL ${per(roundTrips)} round trips (${per(turns)} client turns), bucket ${per(total)} requests (${requests.map(([label, n]) => `${label} ${per(n)}`).join(", ")}); round trips served: PostgreSQL ${rtt(after.served.pg)} ms, bucket ${rtt(after.served.s3)} ms`;
}
