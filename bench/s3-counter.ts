/**
 * A TCP proxy in front of an S3 endpoint that counts the requests passing through by verb and by the archive file
 * they name (the marker, save.bin, save.json.gz, the maps, …), with the bytes each way. Raw bytes are piped, so the
 * client's signature (which covers the Host header) stays valid upstream; each request is one signature.
 * HTTP/1.1 request heads are parsed and their Content-Length skipped, so a body is never read as a request.
 */
import { startTcpTap, type Delay, type TcpTap, type Tap } from "./tcp-tap.ts";

export interface S3RequestCount {
  requests: number;
  sent: number;
  received: number;
}

export type S3Counts = Record<string, S3RequestCount>;

export interface S3Counter {
  /** http://127.0.0.1:<port>, to use as S3_ENDPOINT. */
  url: string;
  snapshot(): S3Counts;
  served: TcpTap["served"];
  stop(): Promise<void>;
}

/** `PUT *.png`, `GET .save-id`, `GET ?list`: the verb and the kind of object. */
export function s3Label(method: string, target: string): string {
  const [path, query] = target.split("?") as [string, string | undefined];
  const name = decodeURIComponent(path.split("/").at(-1) ?? "");
  if (query !== undefined && /(^|&)(list-type|prefix)=/.test(query)) return `${method} ?list`;
  return `${method} ${name.endsWith(".png") ? "*.png" : name}`;
}

/** `delay`: the distance to the bucket (tcp-tap.ts). */
export async function startS3Counter(upstream: string, delay?: Delay): Promise<S3Counter> {
  const target = new URL(upstream);
  const counts: S3Counts = {};
  const tapFor = (): Tap => {
    let pending = Buffer.alloc(0);
    let bodyLeft = 0;
    let current: S3RequestCount | undefined;
    return {
      fromClient: (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          if (bodyLeft > 0) {
            const taken = Math.min(bodyLeft, pending.length);
            bodyLeft -= taken;
            if (current) current.sent += taken;
            pending = pending.subarray(taken);
            if (bodyLeft > 0) return;
          }
          const headEnd = pending.indexOf("\r\n\r\n");
          if (headEnd < 0) return;
          const head = pending.toString("latin1", 0, headEnd);
          const [method = "?", path = "?"] = head.split("\r\n")[0]!.split(" ");
          current = counts[s3Label(method, path)] ??= { requests: 0, sent: 0, received: 0 };
          current.requests++;
          current.sent += headEnd + 4;
          bodyLeft = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          pending = pending.subarray(headEnd + 4);
        }
      },
      fromServer: (chunk) => {
        if (current) current.received += chunk.length;
      },
    };
  };
  const tap = await startTcpTap({ host: target.hostname, port: Number(target.port) }, tapFor, delay);
  return {
    url: `http://127.0.0.1:${tap.port}`,
    snapshot: () => structuredClone(counts),
    served: tap.served,
    stop: tap.stop,
  };
}

export function s3Delta(before: S3Counts, after: S3Counts): S3Counts {
  const delta: S3Counts = {};
  for (const [label, count] of Object.entries(after)) {
    const was = before[label] ?? { requests: 0, sent: 0, received: 0 };
    if (count.requests !== was.requests) delta[label] = { requests: count.requests - was.requests, sent: count.sent - was.sent, received: count.received - was.received };
  }
  return delta;
}
