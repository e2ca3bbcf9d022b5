/**
 * One push per refresh: whether a save is pushed or only archived, decided in the same immediate transaction
 * that records its deliveries, so two runners holding two saves of one refresh cannot both decide "push".
 *
 * A save counts as pushed once it has a push delivery that is to be sent or was (pending, sent or failed): a
 * save routed to "none", or only to channels that are not configured, pushed nothing and is never "the last
 * push". Consumer webhooks' rows are no push: every save gets them.
 */
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { DATA_WEBHOOK_CHANNEL, type PushCandidate, type PushDecision, type RoutedTarget } from "../../store/model/deliveries.ts";
import { createDeliveries } from "./rows.ts";
import type { Db, Tx } from "../open.ts";
import { setRepeatOf } from "../saves/sqlite.ts";
import { deliveries, saves } from "../schema.ts";


/** A save of the same data type as save `saveId` (the candidate's own row says it). */
const sameDataTypeAs = (saveId: number) => sql`${saves.dataType} = (SELECT s2.data_type FROM saves s2 WHERE s2.id = ${saveId})`;

const pushed = and(ne(deliveries.state, "skipped"), ne(deliveries.channel, DATA_WEBHOOK_CHANNEL));

/** The player's save (other than `exclude`, of its data type when `sameType`) that got the latest delivery to be sent. */
function lastPushedSave(tx: Tx, playerId: string, exclude: number, sameType: boolean): { id: number; dropsFingerprint: string | null } | undefined {
  return tx
    .select({ id: saves.id, dropsFingerprint: saves.dropsFingerprint })
    .from(deliveries)
    .innerJoin(saves, eq(saves.id, deliveries.saveId))
    .where(and(eq(saves.playerId, playerId), ne(saves.id, exclude), sameType ? sameDataTypeAs(exclude) : undefined, pushed))
    .orderBy(desc(deliveries.id))
    .limit(1)
    .get();
}

/**
 * The push a save repeats: the player's last push, or their last push of the save's data type. A party refresh is
 * the newest harvest state, so the next visit of the save shows its drops (the last push); the second keeps a
 * delivery whose maps hold fewer sites than the save from making the next visit of the same refresh a new push.
 */
function repeatedPush(tx: Tx, save: PushCandidate): number | null {
  for (const sameType of [false, true]) {
    const last = lastPushedSave(tx, save.playerId, save.saveId, sameType);
    if (last && last.dropsFingerprint === save.dropsFingerprint) return last.id;
  }
  return null;
}

/**
 * Decides and records: a repeat gets `saves.repeat_of` and no deliveries; any other save gets a delivery per
 * routed target. A save already pushed (a retry, a new route after adoption) stays pushed.
 */
export function decidePush(db: Db, save: PushCandidate, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number): PushDecision {
  return db.transaction(
    (tx) => {
      const alreadyPushed = tx.select({ id: deliveries.id }).from(deliveries).where(and(eq(deliveries.saveId, save.saveId), pushed)).get();
      if (!alreadyPushed && save.checkRepeat) {
        const repeatOf = repeatedPush(tx, save);
        if (repeatOf !== null) {
          setRepeatOf(tx, save.saveId, repeatOf);
          return { push: false, repeatOf };
        }
      }
      setRepeatOf(tx, save.saveId, null);
      createDeliveries(tx, save.saveId, targets, configured, now);
      return { push: true };
    },
    { behavior: "immediate" },
  );
}
