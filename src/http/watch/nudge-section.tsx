/** @jsxImportSource hono/jsx */
/** The player's own switch for missed-refresh nudges (the owner's is `cli watch nudge`); POST /p/<token>/nudge. */
import type { NudgePlayer } from "../../nudge/store.ts";
import { NUDGE_STRINGS as S } from "../../nudge/strings.ts";

export function NudgeSection({ path, nudge }: { path: string; nudge: NudgePlayer | null }) {
  return (
    <section id="nudges">
      <h2>{S.pageHeading}</h2>
      <p>{nudge === null ? S.pageOff : S.pageOn(nudge.hours)}</p>
      <form method="post" action={`${path}/nudge`}>
        <input type="hidden" name="on" value={nudge === null ? "1" : "0"} />
        <button type="submit">{nudge === null ? S.turnOn : S.turnOff}</button>
      </form>
    </section>
  );
}
