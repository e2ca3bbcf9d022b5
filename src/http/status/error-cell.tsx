/** @jsxImportSource hono/jsx */
/**
 * A failure's reason as the page's reader takes it in: its kind, in the page's language, with the raw text (English,
 * as logged, secrets redacted) behind a toggle for whoever needs the detail.
 */
import { errorKind } from "../../failure-kind.ts";
import type { Messages } from "../../i18n/messages/index.ts";

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
