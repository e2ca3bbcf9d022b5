/**
 * A TCP proxy in front of an S3 endpoint whose bucket the test makes slow (each request held `delayMs` before it
 * goes upstream) or away (nothing listens: connections are refused) and back, on the same port. Raw bytes are
 * piped, so the client's signature (which covers the Host header) stays valid upstream.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface FlakyProxy {
  /** http://127.0.0.1:<port>, to use as S3_ENDPOINT. */
  url: string;
  /** Each request waits this long before it is passed on (0: none). */
  delayMs: number;
  /** Stops listening and cuts every connection. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;

export async function startFlakyProxy(upstream: string): Promise<FlakyProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const proxy: FlakyProxy = {
    url: "",
    delayMs: 0,
    down: async () => {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = null;
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },
    up: () => listen(),
    stop: () => proxy.down(),
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
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
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        proxy.url = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  await listen();
  return proxy;
}
