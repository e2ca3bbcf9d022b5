/**
 * A TCP proxy in front of an S3 endpoint whose bucket the test makes slow (each request held `delayMs` before it
 * goes upstream) or away (every connection reset as it opens) and back. It keeps listening while away: a port it
 * let go could be taken by another test's server in a parallel run, and the client would then talk to that one.
 * Raw bytes are piped, so the client's signature (which covers the Host header) stays valid upstream.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface FlakyProxy {
  /** http://127.0.0.1:<port>, to use as S3_ENDPOINT. */
  url: string;
  /** Each request waits this long before it is passed on (0: none). */
  delayMs: number;
  /** Cuts every connection, and resets each new one as it opens. */
  down(): Promise<void>;
  /** Passes connections on again. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;

export async function startFlakyProxy(upstream: string): Promise<FlakyProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let away = false;
  const proxy: FlakyProxy = {
    url: "",
    delayMs: 0,
    down: async () => {
      away = true;
      for (const socket of sockets) socket.destroy();
    },
    up: async () => {
      away = false;
    },
    stop: async () => {
      await proxy.down();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((client) => {
    if (away) return void client.resetAndDestroy();
    const up = createConnection(Number(target.port), target.hostname);
    sockets.add(client).add(up);
    let chain = Promise.resolve();
    client.on("data", (chunk: Buffer) => {
      const held = REQUEST_LINE.test(chunk.subarray(0, 2048).toString("latin1")) ? proxy.delayMs : 0;
      chain = chain.then(() => (held > 0 ? Bun.sleep(held) : undefined)).then(() => void up.write(chunk));
    });
    up.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      up.destroy();
      sockets.delete(client);
      sockets.delete(up);
    };
    client.on("close", end).on("error", end);
    up.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return proxy;
}
