/** HAR reports as capture tools send them: a save as a base64 response body, among other entries. */
import { DEFAULT_REPORT_PATH } from "../../src/contract.ts";

const encoder = new TextEncoder();

export const REPORT_PATH = DEFAULT_REPORT_PATH;

/** A HAR document whose second entry carries `save` (base64) as the response of `url`. */
export function harWithSave(save: Uint8Array, url: string): Record<string, unknown> {
  const content = { mimeType: "application/octet-stream", size: save.length, text: Buffer.from(save).toString("base64"), encoding: "base64" };
  return {
    log: {
      entries: [
        { request: { method: "GET", url: "https://game-api.example/api/system", headers: [] }, response: { status: 200, content: { mimeType: "application/json", text: '{"ok":true}' } } },
        { request: { method: "POST", url, headers: [] }, response: { status: 200, content } },
      ],
    },
  };
}

export const jsonBytes = (doc: unknown): Uint8Array => encoder.encode(JSON.stringify(doc));

/** The gzip'd HAR report of one save, as Reqable posts it. */
export const gzipReport = (save: Uint8Array, url: string): Uint8Array =>
  Bun.gzipSync(jsonBytes(harWithSave(save, url)) as Uint8Array<ArrayBuffer>);
