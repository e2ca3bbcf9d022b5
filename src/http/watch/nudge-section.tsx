/** @jsxImportSource hono/jsx */
/** The player's own switch for missed-refresh nudges (the owner's is `cli watch nudge`); POST /p/<token>/nudge. */
import type { NudgePlayer } from "../../store/ports/nudges.ts";
import type { PageLang } from "../page-lang.ts";

export function NudgeSection({ path, nudge, lang: { t } }: { path: string; nudge: NudgePlayer | null; lang: PageLang }) {
  return (
    <section id="nudges">
      <h2>{t.nudgeHeading}</h2>
      <p>{nudge === null ? t.nudgeOff : t.nudgeOn(nudge.hours)}</p>
      <form method="post" action={`${path}/nudge`}>
        <input type="hidden" name="on" value={nudge === null ? "1" : "0"} />
        <button type="submit">{nudge === null ? t.nudgeTurnOn : t.nudgeTurnOff}</button>
      </form>
    </section>
  );
}
