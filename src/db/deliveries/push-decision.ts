/**
 * One push per refresh: whether a save is pushed or only archived, decided in the same transaction that records
 * its deliveries, written once for both stores (src/db/dialect/). Deciders of one player's saves take turns (the
 * player's lock on PostgreSQL; SQLite's immediate transaction serialises every writer): each sees the deliveries
 * the one before committed, so two runners holding two saves of one refresh cannot both decide "push".
 *
 * A save counts as pushed once it has a push delivery that is to be sent or was (pending, sent or failed): a
 * save routed to "none", or only to channels that are not configured, pushed nothing and is never "the last
 * push". Consumer webhooks' rows are no push: every save gets them.
 */
import { lock, read, run, type Flow } from "../dialect/statements.ts";
import { REPEAT_OF } from "../saves/rules.ts";
import { DATA_WEBHOOK_CHANNEL, type Delivery, type PushCandidate, type PushDecision, type RoutedTarget } from "../../store/model/deliveries.ts";
import { routedRow, saveDeliveries } from "./rows.ts";

/** A delivery (alias `a`) that made its save a push: not skipped, not a consumer webhook's ($2). */
const pushed = (a: string) => `${a}.state <> 'skipped' AND ${a}.channel <> $2`;
/** None when the save was pushed already (a retry, a new route after adoption): it stays pushed. */
const NOT_PUSHED_YET = `NOT EXISTS (SELECT 1 FROM deliveries a WHERE a.save_id = $1 AND ${pushed("a")})`;
/** The player's ($3) latest push of another save ($1), ranked `rank`, among saves meeting `alsoWhere`. */
const lastPush = (rank: number, alias: string, alsoWhere = "") =>
  `SELECT id, "dropsFingerprint", rank FROM (
     SELECT s.id, s.drops_fingerprint AS "dropsFingerprint", ${rank} AS rank FROM deliveries d JOIN saves s ON s.id = d.save_id
     WHERE s.player_id = $3 AND s.id <> $1 AND ${pushed("d")} AND ${NOT_PUSHED_YET}${alsoWhere} ORDER BY d.id DESC LIMIT 1) AS ${alias}`;
/**
 * The player's last push (rank 0) and their last push of the save's data type (rank 1), other than the save, if
 * the save was not pushed yet: a party refresh is the newest harvest state, so the next visit of the save shows
 * its drops (the last push); the second keeps a delivery whose maps hold fewer sites than the save from making the
 * next visit of the same refresh a new push.
 */
const LAST_PUSHES = read<{ id: number; dropsFingerprint: string | null; rank: number }>(
  `${lastPush(0, "last_push")}
   UNION ALL
   ${lastPush(1, "last_of_type", " AND s.data_type = (SELECT s2.data_type FROM saves s2 WHERE s2.id = $1)")}
   ORDER BY rank`,
  { id: "int", rank: "int" },
);
const ROUTED_COLUMNS = ["channel", "target", "state", "last_error"] as const;
/** A row per routed target ($3, JSON) not yet recorded (`WHERE true`: SQLite reads an upsert after a bare SELECT … FROM as a join); then a pending push row whose target is routed no more (the save took a real player id, or push_map.json changed) is skipped: it gets nothing not yet sent. */
const ADD_ROUTED = read(
  (d) => `INSERT INTO deliveries (save_id, channel, target, state, last_error, next_attempt_at, created_at)
   SELECT $1, r.channel, r.target, r.state, r.last_error, $2, $2 FROM ${d.jsonRecords("$3", "r", ROUTED_COLUMNS)} WHERE true ON CONFLICT DO NOTHING`,
);
const SKIP_UNROUTED = read(
  (d) => `UPDATE deliveries SET state = 'skipped', last_error = 'no longer routed to this player'
   WHERE save_id = $1 AND state = 'pending' AND channel <> $2
     AND NOT EXISTS (SELECT 1 FROM ${d.jsonRecords("$3", "r", ROUTED_COLUMNS)} WHERE r.channel = deliveries.channel AND r.target = deliveries.target)`,
);

/** "push": the push decision's lock namespace since hub mode began; old and new processes of a rolling update share it. */
const PUSH_DECISION_SCOPE = 0x70757368;

/**
 * Decides and records: a repeat gets `saves.repeat_of` and no deliveries; any other save gets a delivery per
 * routed target; a save already pushed stays pushed. With the decision,
 * the save's deliveries as it leaves them. Run in one transaction.
 */
export function* decidePush(save: PushCandidate, targets: RoutedTarget[], configured: ReadonlySet<string>, now: number): Flow<PushDecision & { deliveries: Delivery[] }> {
  // A statement of its own: a statement's snapshot is taken before it waits, the decision's must be after.
  yield* lock(PUSH_DECISION_SCOPE, save.playerId);
  if (save.checkRepeat) {
    const repeat = (yield* run(LAST_PUSHES, [save.saveId, DATA_WEBHOOK_CHANNEL, save.playerId])).find((last) => last.dropsFingerprint === save.dropsFingerprint);
    if (repeat) {
      yield* run(REPEAT_OF, [save.saveId, repeat.id]);
      return { push: false, repeatOf: repeat.id, deliveries: yield* saveDeliveries(save.saveId) };
    }
  }
  yield* run(REPEAT_OF, [save.saveId, null]);
  const routed = JSON.stringify(
    targets.map((target) => routedRow(target, configured)),
  );
  yield* run(ADD_ROUTED, [save.saveId, now, routed]);
  yield* run(SKIP_UNROUTED, [save.saveId, DATA_WEBHOOK_CHANNEL, routed]);
  return { push: true, deliveries: yield* saveDeliveries(save.saveId) };
}
