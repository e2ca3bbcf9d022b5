/**
 * Runs a capture upload script the way an iOS proxy app does, in a fresh JS context (node:vm): `$request`,
 * `$response` with a binary body, `$httpClient` or `$task` doing real HTTP, `$done`. Like the app that
 * sends the whole underlying buffer of a typed-array view, the imitation posts `view.buffer` as it is, and
 * it hands the script its body as a view with an offset into a larger buffer, as an app may.
 */
import vm from "node:vm";
import type { ProxyApp } from "../../src/capture/modules.ts";

export interface PostedUpload {
  url: string;
  headers: Record<string, string>;
  /** The timeout the script asked for, in the app's own unit. */
  timeout: unknown;
  status: number;
  text: string;
}

export interface AppRun {
  /** Every `$done` argument, in call order. */
  doneCalls: unknown[];
  /** `$done` calls made before the script's first synchronous run returned. */
  doneBeforeReturn: number;
  /** Whether the upload had been answered when the synchronous run returned. */
  answeredBeforeReturn: boolean;
  /** Resolves when the upload is answered; rejects if the script posted nothing in its synchronous run. */
  upload: Promise<PostedUpload>;
  logs: string[];
}

/** A view of `body` at a non-zero offset inside a buffer with junk around it. */
export function offsetView(body: Uint8Array): Uint8Array {
  const buffer = new Uint8Array(body.byteLength + 64).fill(0xee);
  buffer.set(body, 32);
  return buffer.subarray(32, 32 + body.byteLength);
}

/** What an app sends for a body it is given: a view goes out as its whole underlying buffer. */
function bytesOnTheWire(body: unknown): Uint8Array | string {
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer);
  if (body instanceof ArrayBuffer || Object.prototype.toString.call(body) === "[object ArrayBuffer]") return new Uint8Array(body as ArrayBuffer);
  return String(body);
}

export function runInApp(app: ProxyApp, script: string, request: { url: string }, body: Uint8Array): AppRun {
  const logs: string[] = [];
  const doneCalls: unknown[] = [];
  let answered = false;
  let resolveUpload!: (upload: PostedUpload) => void;
  let rejectUpload!: (error: Error) => void;
  const upload = new Promise<PostedUpload>((resolve, reject) => {
    resolveUpload = resolve;
    rejectUpload = reject;
  });
  upload.catch(() => undefined); // awaited by the tests that expect an upload
  let posts = 0;

  const send = async (url: string, headers: Record<string, string>, payload: unknown, timeout: unknown) => {
    posts++;
    const response = await fetch(url, { method: "POST", headers, body: bytesOnTheWire(payload) });
    const posted = { url, headers, timeout, status: response.status, text: await response.text() };
    answered = true;
    resolveUpload(posted);
    return posted;
  };

  const requestObject = { url: request.url, method: "GET", headers: { Host: new URL(request.url).host } };
  const globals: Record<string, unknown> = {
    console: { log: (message: unknown) => logs.push(String(message)) },
    $request: requestObject,
    $done: (value: unknown) => doneCalls.push(value),
  };
  if (app === "quantumultx") {
    const copy = body.slice();
    globals.$response = { statusCode: 200, headers: {}, bodyBytes: copy.buffer };
    globals.$task = {
      fetch: (options: { url: string; headers: Record<string, string>; bodyBytes: unknown }) =>
        send(options.url, options.headers, options.bodyBytes, undefined).then(
          (posted) => ({ statusCode: posted.status, headers: {}, body: posted.text }),
          (error) => Promise.reject({ error: String(error) }),
        ),
    };
  } else {
    globals.$response = { status: 200, headers: {}, body: offsetView(body) };
    globals.$httpClient = {
      post: (
        options: { url: string; headers: Record<string, string>; body: unknown; timeout?: unknown },
        callback: (error: string | null, response?: { status: number }, data?: string) => void,
      ) => {
        send(options.url, options.headers, options.body, options.timeout).then(
          (posted) => callback(null, { status: posted.status }, posted.text),
          (error) => callback(String(error)),
        );
      },
    };
    if (app === "loon") globals.$loon = "iPhone 16.0 Loon 3.2.0";
  }

  vm.runInNewContext(script, globals, { timeout: 1000 });
  if (posts === 0) rejectUpload(new Error("the script posted nothing"));
  return { doneCalls, doneBeforeReturn: doneCalls.length, answeredBeforeReturn: answered, upload, logs };
}
