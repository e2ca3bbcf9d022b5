/** GET /maps/<token>/<file>.png: the archived maps, by an unguessable per-archive token. No listing. */
import { Hono } from "hono";
import { STORE_RETRY_AFTER_SECONDS } from "../store-unavailable.ts";
import type { HttpDeps } from "./deps.ts";
import { pageText } from "./page-lang.ts";

const TOKEN = /^[0-9a-f]{32}$/;
const PNG_NAME = /^[A-Za-z0-9_-]{1,64}\.png$/;

export function mapRoutes({ pages, archive: store, config }: HttpDeps): Hono {
  const app = new Hono();
  // Map links are opened from a push in a browser: refusals in the reader's language.
  app.get("/maps/:token/:file", async (c) => {
    const { token, file } = c.req.param();
    const t = pageText(c, config);
    if (!TOKEN.test(token) || !PNG_NAME.test(file)) return c.text(t.errNotFound, 404);
    const archive = await pages.archiveByToken(token);
    if (!archive || !archive.files.includes(file)) return c.text(t.errNotFound, 404);
    const png = await store.read(archive.relPath, file).catch(() => undefined);
    if (png === undefined) return c.text(t.errArchiveBusy, 503, { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) });
    if (png === null) return c.text(t.errNotFound, 404);
    return new Response(body(png), {
      headers: {
        "Content-Type": "image/png",
        // Short: a reprocess rewrites the images under the same URL.
        "Cache-Control": "public, max-age=300",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
  return app;
}

/**
 * A file from disk goes as it is (sendfile). A bucket's object is streamed: `new Response(S3File)` would answer
 * with a redirect to a presigned URL and refuses headers.
 */
function body(png: Blob): Blob | ReadableStream {
  return "presign" in png ? png.stream() : png;
}
