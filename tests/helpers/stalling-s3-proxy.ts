/**
 * A TCP proxy in front of an S3 endpoint that passes every request through until one matches `stall`, then holds
 * that connection forever (nothing forwarded, nothing answered): a process writing an archive is caught mid-write,
 * deterministically, with whatever it wrote before already in the bucket. Raw bytes are piped, so the client's
 * signature (which covers the Host header) stays valid upstream.
 */
import { createConnection, createServer, type Socket } from "node:net";

export interface StallingProxy {
  /** http://127.0.0.1:<port>, to use as S3_ENDPOINT. */
  url: string;
  /** Request lines ("PUT /bucket/key HTTP/1.1") held so far. */
  stalled: string[];
  stop(): Promise<void>;
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/;

export async function startStallingProxy(upstream: string, stall: (method: string, path: string) => boolean): Promise<StallingProxy> {
  const target = new URL(upstream);
  const stalled: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const up = createConnection(Number(target.port), target.hostname);
    sockets.add(client).add(up);
    let held = false;
    client.on("data", (chunk: Buffer) => {
      if (held) return;
      // A request's head starts a chunk (the client writes head and body separately or together).
      const line = REQUEST_LINE.exec(chunk.subarray(0, 2048).toString("latin1"));
      if (line && stall(line[1]!, decodeURIComponent(line[2]!))) {
        held = true;
        stalled.push(line[0].trim());
        return;
      }
      up.write(chunk);
    });
    up.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      up.destroy();
    };
    client.on("close", end).on("error", end);
    up.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stalled,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
