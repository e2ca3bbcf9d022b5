/**
 * A loopback TCP proxy that passes every byte through unchanged and shows it to a tap on the way, for the counting
 * proxies in front of PostgreSQL and S3 (pg-wire-counter.ts, s3-counter.ts): each client connection gets its own
 * upstream connection and its own tap, and both ends close together. With `delayMs`, it is also the distance to a
 * store on another machine (issue 46; this kernel has no netem): each direction's bytes, and its close, arrive that
 * much later, in the order they were sent.
 */
import { createConnection, createServer, type Socket } from "node:net";

export interface Tap {
  fromClient(chunk: Buffer): void;
  fromServer(chunk: Buffer): void;
  closed?(): void;
}

export interface TcpTap {
  port: number;
  /** The mean delay actually added per chunk, each way (ms): timers fire late, never early. */
  served(): { toServer: number; toClient: number };
  stop(): Promise<void>;
}

/** Each way's delay; a round trip costs their sum. */
export interface Delay {
  toServer: number;
  toClient: number;
}

/**
 * A timer fires ≥ 1 ms after it is set, and its ms are truncated: a due time is released when it is less than half a
 * tick away, so a 2.5 ms delay is served as ~2–3 ms, not 3.2.
 */
const TICK_MS = 1;

/** One direction of one connection: chunks (and the close) leave `ms` after they came, in order. */
class DelayLine {
  private readonly queue: { due: number; came: number; send: () => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    private readonly ms: number,
    private readonly served: { total: number; count: number },
  ) {}

  push(send: () => void): void {
    const now = performance.now();
    if (this.ms <= 0 && this.queue.length === 0) return send();
    this.queue.push({ due: now + this.ms, came: now, send });
    if (this.timer === undefined) this.arm();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.queue.length = 0;
  }

  private arm(): void {
    const head = this.queue[0]!;
    this.timer = setTimeout(() => this.release(), Math.max(0, Math.floor(head.due - performance.now())));
  }

  private release(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0]!.due - now < TICK_MS / 2) {
      const item = this.queue.shift()!;
      this.served.total += now - item.came;
      this.served.count++;
      item.send();
    }
    if (this.queue.length > 0) this.arm();
  }
}

export async function startTcpTap(upstream: { host: string; port: number }, tapFor: () => Tap, delay: Delay = { toServer: 0, toClient: 0 }): Promise<TcpTap> {
  const sockets = new Set<Socket>();
  const served = { toServer: { total: 0, count: 0 }, toClient: { total: 0, count: 0 } };
  const server = createServer((client) => {
    const up = createConnection(upstream.port, upstream.host);
    // Bytes from the client before the upstream connects are buffered by the socket.
    sockets.add(client).add(up);
    const tap = tapFor();
    const toServer = new DelayLine(delay.toServer, served.toServer);
    const toClient = new DelayLine(delay.toClient, served.toClient);
    client.on("data", (chunk: Buffer) => {
      tap.fromClient(chunk);
      toServer.push(() => up.write(chunk));
    });
    up.on("data", (chunk: Buffer) => {
      tap.fromServer(chunk);
      toClient.push(() => client.write(chunk));
    });
    let open = true;
    const end = () => {
      if (open) tap.closed?.();
      open = false;
      toServer.cancel();
      toClient.cancel();
      client.destroy();
      up.destroy();
    };
    // A side's close reaches the other after the bytes it sent before it.
    client.on("close", () => toServer.push(end)).on("error", end);
    up.on("close", () => toClient.push(end)).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const mean = (way: { total: number; count: number }) => (way.count === 0 ? 0 : way.total / way.count);
  return {
    port: (server.address() as { port: number }).port,
    served: () => ({ toServer: mean(served.toServer), toClient: mean(served.toClient) }),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A round trip split into each way's delay: half each, but below two timer ticks all of it on the way to the store
 * (a timer cannot wait less than a tick, so halves would double it; a request and its answer wait the same).
 */
export function delayFor(rttMs: number): Delay {
  return rttMs >= 2 * TICK_MS ? { toServer: rttMs / 2, toClient: rttMs / 2 } : { toServer: rttMs, toClient: 0 };
}
