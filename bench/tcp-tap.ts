/**
 * A loopback TCP proxy that passes every byte through unchanged and shows it to a tap on the way, for the counting
 * proxies in front of PostgreSQL and S3 (pg-wire-counter.ts, s3-counter.ts): each client connection gets its own
 * upstream connection and its own tap, and both ends close together.
 */
import { createConnection, createServer, type Socket } from "node:net";

export interface Tap {
  fromClient(chunk: Buffer): void;
  fromServer(chunk: Buffer): void;
  closed?(): void;
}

export interface TcpTap {
  port: number;
  stop(): Promise<void>;
}

export async function startTcpTap(upstream: { host: string; port: number }, tapFor: () => Tap): Promise<TcpTap> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const up = createConnection(upstream.port, upstream.host);
    sockets.add(client).add(up);
    const tap = tapFor();
    client.on("data", (chunk: Buffer) => {
      up.write(chunk);
      tap.fromClient(chunk);
    });
    up.on("data", (chunk: Buffer) => {
      client.write(chunk);
      tap.fromServer(chunk);
    });
    let open = true;
    const end = () => {
      if (open) tap.closed?.();
      open = false;
      client.destroy();
      up.destroy();
    };
    client.on("close", end).on("error", end);
    up.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
