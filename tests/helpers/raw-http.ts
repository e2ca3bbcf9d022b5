/**
 * HTTP/1.1 over a raw socket, for requests fetch() refuses to send: duplicate or control-char headers,
 * a wrong Content-Length, hand-made chunked bodies, a client that hangs up mid-body.
 */
import { connect } from "node:net";

export type HeaderValue = string | Uint8Array;

export interface RawRequest {
  method?: string;
  path: string;
  /** The Host header as sent (default: the server's host:port); null sends none. */
  host?: string | null;
  /** Sent in order, repeats allowed; values as given (bytes or latin-1 text). */
  headers?: [string, HeaderValue][];
  body?: Uint8Array;
  /** "auto": Content-Length of the body; "chunked": Transfer-Encoding: chunked (64 KiB chunks); "none": no framing header. */
  framing?: "auto" | "chunked" | "none";
  /** Stop sending after this many body bytes and half-close (a client that hangs up). */
  cutAfter?: number;
  timeoutMs?: number;
  /** The local address to send from (any 127.x.y.z: a peer of its own on loopback). */
  from?: string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

function encodeRequest(host: string, request: RawRequest): Buffer {
  const framing = request.framing ?? "auto";
  const body = request.body ?? new Uint8Array(0);
  const hostLine = request.host === null ? "" : `Host: ${request.host ?? host}\r\n`;
  const lines: Buffer[] = [latin1(`${request.method ?? "POST"} ${request.path} HTTP/1.1\r\n${hostLine}Connection: close\r\n`)];
  for (const [name, value] of request.headers ?? []) {
    lines.push(latin1(`${name}: `), typeof value === "string" ? latin1(value) : Buffer.from(value), latin1("\r\n"));
  }
  if (framing === "auto") lines.push(latin1(`Content-Length: ${body.length}\r\n`));
  if (framing === "chunked") lines.push(latin1("Transfer-Encoding: chunked\r\n"));
  lines.push(latin1("\r\n"));
  if (framing === "chunked") {
    for (let offset = 0; offset < body.length; offset += 65_536) {
      const part = body.subarray(offset, offset + 65_536);
      lines.push(latin1(`${part.length.toString(16)}\r\n`), Buffer.from(part), latin1("\r\n"));
    }
    lines.push(latin1("0\r\n\r\n"));
  } else {
    lines.push(Buffer.from(body));
  }
  const bytes = Buffer.concat(lines);
  if (request.cutAfter === undefined) return bytes;
  const headLength = bytes.length - (framing === "chunked" ? bytes.length : body.length);
  return bytes.subarray(0, headLength + request.cutAfter);
}

function decodeChunked(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseAnswer(bytes: Buffer): RawAnswer | null {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const [statusLine = "", ...headerLines] = bytes.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(headEnd + 4);
  if (headers["transfer-encoding"]?.includes("chunked")) body = decodeChunked(body);
  else if (headers["content-length"] !== undefined) body = body.subarray(0, Number(headers["content-length"]));
  return { status, headers, body: body.toString("utf8") };
}

/** Sends one request on a fresh connection; null when the server closed without an answer. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer | null> {
  const { hostname, port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port), ...(request.from && { localAddress: request.from }) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${request.timeoutMs ?? 15_000} ms`));
    }, request.timeoutMs ?? 15_000);
    const finish = () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(received)));
    };
    socket.on("connect", () => {
      socket.write(encodeRequest(host, request));
      if (request.cutAfter !== undefined) socket.end();
    });
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("end", finish);
    socket.on("error", finish); // a reset after (or instead of) the answer
  });
}
