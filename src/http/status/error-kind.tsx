/** @jsxImportSource hono/jsx */
/**
 * A failure's reason as the page's reader takes it in: its kind, in the page's language, with the raw text (English,
 * as logged, secrets redacted) behind a toggle for whoever needs the detail.
 */
import type { Messages } from "../../i18n/messages/index.ts";

type ErrorKind = keyof Messages["errorKinds"];

/** First match wins: the texts are the pipeline's and the channels' own (src/save/open.ts, src/notify/http.ts …). */
const KINDS: [ErrorKind, RegExp][] = [
  ["noKey", /no AES key/i],
  ["decrypt", /does not decrypt|no candidate decrypts|bad padding|not a multiple of 16|not valid base64/i],
  ["notSave", /not MessagePack|not a MySekai save|empty body/i],
  ["tooLarge", /\(limit \d|too large|past the cap|over the cap/i],
  ["unreadable", /cannot be read/i],
  ["notConfigured", /not configured|not in bark_map\.json/i],
  ["timeout", /no answer within|timed out|timeout/i],
  ["network", /network error|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|socket/i],
  ["rejected", /HTTP 4\d\d|code 4\d\d/i],
  ["busy", /HTTP (5\d\d|429)|code (5\d\d|429)/i],
  ["storage", /missing from the archive|is missing|archive|bucket|database|store/i],
];

/** A failure text's kind (the CLI's first-run wizard names a failed test message by it too). */
export function errorKind(raw: string): ErrorKind {
  return KINDS.find(([, pattern]) => pattern.test(raw))?.[0] ?? "other";
}

export function ErrorCell({ raw, t }: { raw: string | null; t: Messages }) {
  if (raw === null || raw === "") return <td class="err">–</td>;
  const kind = errorKind(raw);
  return (
    <td class="err">
      <details data-kind={kind}>
        <summary>{t.errorKinds[kind]}</summary>
        <code translate="no">{raw}</code>
      </details>
    </td>
  );
}
