/** @jsxImportSource hono/jsx */
/** A player's own switch for public reads of their latest save (the owner's is `cli players public`). */
import type { Messages } from "../../i18n/messages/index.ts";

export function PublicReadsSection({ path, on, publicUrl, t }: { path: string; on: boolean; publicUrl: string; t: Messages }) {
  return (
    <section>
      <h2>{t.publicReads}</h2>
      {on ? (
        <p>
          {t.publicReadsOn} <code translate="no">{publicUrl}</code>
        </p>
      ) : (
        <p>{t.publicReadsOff}</p>
      )}
      <form method="post" action={`${path}/public`}>
        <input type="hidden" name="on" value={on ? "0" : "1"} />
        <button type="submit">{on ? t.turnPublicOff : t.turnPublicOn}</button>
      </form>
    </section>
  );
}
