/**
 * A local HTTP server that records every request and answers from a per-path script. Stands in for
 * Telegram, Bark, Discord, OneBot, webhook receivers (or anything else) in tests.
 *
 *   const server = await startRecordingServer();
 *   server.respond("/push", { status: 500 }, { body: { code: 200 } }); // queue: 500 first, then 200
 *   ... point the code under test at server.url ...
 *   server.requestsTo("/push")[0]?.json
 *   await server.stop();
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query, URL-decoded as the server saw it (`%2F` stays encoded). */
  path: string;
  /** Path plus query string, as received. */
  target: string;
  /** Query parameters (the last value wins for repeated names). */
  query: Record<string, string>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The raw body bytes. */
  body: Uint8Array;
  /** The body as UTF-8 text. */
  text: string;
  /** Parsed body when the content type is JSON (undefined if absent or unparsable). */
  json: unknown;
  /** Parsed body for multipart/form-data and application/x-www-form-urlencoded, else null. */
  form: FormData | null;
  receivedAt: number;
}

export interface ScriptedResponse {
  status?: number;
  /** A string or bytes are sent as is; anything else is sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (to exercise client timeouts). */
  delayMs?: number;
}

/** A function may answer later (a test that acts on a store while the request is in flight). */
export type Responder = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>);

export interface RecordingServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  requestsTo(path: string): RecordedRequest[];
  /** Queues one-shot responses for `path` (exact match), used in order before the path's default. */
  respond(path: string, ...responses: Responder[]): void;
  /** Sets the response used when a path's queue is empty; `path` "*" applies to every path. */
  setDefault(path: string, response: Responder): void;
  /** Resolves once at least `count` requests were recorded; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Forgets recorded requests and scripted responses (defaults included, except the global one). */
  reset(): void;
  stop(): Promise<void>;
}

const decoder = new TextDecoder();

async function record(request: Request): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const body = new Uint8Array(await request.arrayBuffer());
  const text = decoder.decode(body);
  const contentType = headers["content-type"] ?? "";
  let json: unknown;
  if (contentType.includes("json")) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  let form: FormData | null = null;
  if (contentType.startsWith("multipart/form-data") || contentType.startsWith("application/x-www-form-urlencoded")) {
    try {
      const copy = new Request(url.toString(), {
        method: "POST",
        headers: { "content-type": contentType },
        body: body as Uint8Array<ArrayBuffer>,
      });
      form = (await copy.formData()) as unknown as FormData;
    } catch {
      form = null;
    }
  }
  return {
    method: request.method,
    path: url.pathname,
    target: url.pathname + url.search,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    text,
    json,
    form,
    receivedAt: Date.now(),
  };
}

function toResponse(scripted: ScriptedResponse): Response {
  const headers = new Headers(scripted.headers);
  let body: string | Uint8Array<ArrayBuffer> | null = null;
  if (typeof scripted.body === "string") body = scripted.body;
  else if (scripted.body instanceof Uint8Array) body = scripted.body as Uint8Array<ArrayBuffer>;
  else if (scripted.body !== undefined) {
    body = JSON.stringify(scripted.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Response(body, { status: scripted.status ?? 200, headers });
}

export async function startRecordingServer(
  options: { defaultResponse?: ScriptedResponse } = {},
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, Responder[]>();
  const defaults = new Map<string, Responder>();
  const globalDefault: Responder = options.defaultResponse ?? { status: 200, body: { ok: true } };
  const waiters: { count: number; resolve: () => void }[] = [];

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const recorded = await record(request);
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const responder =
        queues.get(recorded.path)?.shift() ?? defaults.get(recorded.path) ?? defaults.get("*") ?? globalDefault;
      const scripted = typeof responder === "function" ? await responder(recorded) : responder;
      if (scripted.delayMs !== undefined) await Bun.sleep(scripted.delayMs);
      return toResponse(scripted);
    },
  });
  const port = server.port ?? 0;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    respond(path, ...responses) {
      queues.set(path, [...(queues.get(path) ?? []), ...responses]);
    },
    setDefault(path, response) {
      defaults.set(path, response);
    },
    waitForRequests(count, timeoutMs = 5000) {
      if (requests.length >= count) return Promise.resolve([...requests]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`expected ${count} request(s) within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            waiters.splice(waiters.indexOf(waiter), 1);
            resolve([...requests]);
          },
        };
        waiters.push(waiter);
      });
    },
    reset() {
      requests.length = 0;
      queues.clear();
      defaults.clear();
    },
    async stop() {
      await server.stop(true);
    },
  };
}

/** A loopback URL on which nothing listens (a server is started and stopped to free a port). */
export async function refusedUrl(): Promise<string> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const url = `http://127.0.0.1:${server.port}`;
  await server.stop(true);
  return url;
}
