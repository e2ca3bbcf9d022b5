/**
 * notify: every new save of a known player gets a delivery per consumer webhook (bots pull each save). Then
 * route the save; a save whose drops repeat the player's last push is only archived (NOTIFY_REPEAT=1 and
 * reprocess --notify push it anyway), any other gets a delivery per routed target (the delivery store decides
 * both at once). Then attempt each due delivery alone and record its result at once (the chat pushes first, then
 * the consumer webhooks in their own lane, where a receiver that hangs never holds a pipeline slot), a sent one in a step of its own
 * (sent-record.ts: a refused record is retried, never the push) (deps.deliveries keeps the
 * rows, src/store/ports/deliveries.ts; every attempt and part is claimed under the lease). The save and its
 * archive are read through deps.notifyReads (src/db/read-models/notify.ts).
 */
import type { NotifySave } from "../../store/ports/notify.ts";
import { logInfo, logWarn } from "../../log.ts";
import { storedOutputs, summaryFile, type SaveOutputs } from "../../maps/index.ts";
import { isBirthdayParty } from "../../maps/save-outputs.ts";
import { metrics } from "../../metrics.ts";
import { configuredChannels, sendTo } from "../../notify/channels.ts";
import { sendDataWebhook } from "../../notify/data-webhook.ts";
import { DeliveryError } from "../../notify/errors.ts";
import type { PartProgress, PushMessage } from "../../notify/message.ts";
import { routeFor, type Channel } from "../../notify/routing.ts";
import { pushMessage } from "../push-message.ts";
import { messageForDelivery, targetsByMode } from "../watch-push.ts";
import { nudgePartial } from "../../nudge/run.ts";
import { archivedSaveBodies } from "../save-bodies.ts";
import { redactError } from "../redact.ts";
import type { PipelineDeps, Stage } from "../stage.ts";
import { answeredUnrecorded, recordSent } from "./sent-record.ts";
import { DATA_WEBHOOK_CHANNEL, dueAt, tallyOf, type Delivery } from "../../store/model/deliveries.ts";
import { backoffDelay, holderOf, LeaseLostError, type LeaseHolder } from "../../store/model/jobs.ts";

type Save = NotifySave;

export const notifyStage: Stage = async (deps, job, { now }) => {
  const subject = await deps.notifyReads.subject(job.subject.saveId);
  if (subject === null) return { kind: "fail", reason: "notify needs the save and its archive" };
  const { save, archive } = subject;
  const outputs = storedOutputs(save.outputs);
  if (!job.notify) {
    // The decision taken when it was last notified stands; summary.json, just written again, keeps saying so.
    if (outputs && save.repeatOf !== null) await deps.archive.replace(archive.relPath, save.id, summaryFile(outputs, save.repeatOf));
    return { kind: "advance", next: "done", note: "push not requested (reprocess without --notify)" };
  }
  // Generated before the outputs model (or the drops' fingerprint) was stored: generate it again.
  if (!outputs || save.dropsFingerprint === null) return { kind: "advance", next: "generate", note: "no stored outputs model; generating again" };
  // A partial refresh, or a party delivery that refreshed nothing, changes nothing a bot reads (the data API's
  // latest stays the last harvest state); only a partial refresh of the save is worth a nudge.
  if (PLAYER_ID.test(save.playerId) && !outputs.partial) await deps.deliveries.addDataWebhookDeliveries(save.id, now);
  const delivery = isBirthdayParty(outputs);
  if (outputs.partial && !delivery) await nudgePartial(deps.nudge, save.playerId, save.receivedAt);
  const decided = outputs.partial ? null : await decideAndRecordPush(deps, save, archive, outputs, job.forcePush, now);
  const pushNote = decided !== null ? decided.note : delivery ? "no maps to push (party delivery that refreshed nothing: kept as a record)" : "no maps to push (partial refresh)";

  // The decision returned the save's deliveries as it left them.
  const rows = decided?.deliveries ?? (await deps.deliveries.ofSave(save.id));
  const due = dueAt(rows, now);
  // The chat pushes first, here; consumer webhooks after them, in their own lane (runner.ts, consumer-lane.ts).
  const chats = due.filter((delivery) => delivery.channel !== DATA_WEBHOOK_CHANNEL);
  const consumers = due.filter((delivery) => delivery.channel === DATA_WEBHOOK_CHANNEL);
  const holder = holderOf(job);
  let held = true;
  if (chats.length > 0) {
    const messageFor = await messageForDelivery(deps, save, await pushMessage(deps, save, archive, outputs));
    for (const delivery of chats) {
      // Another runner owns the job now: it sends what is left.
      if ((await attempt(deps, holder, delivery, save, archive.relPath, messageFor(delivery))) === "lease_lost") {
        held = false;
        break;
      }
    }
  }
  const moveOn = async (attempted: boolean) => {
    // Nothing attempted: the rows just read are the tally (a read fewer on a hub).
    const tally = attempted ? await deps.deliveries.tally(save.id) : tallyOf(rows);
    const counts = `sent=${tally.sent} failed=${tally.failed} skipped=${tally.skipped}`;
    const anyDelivery = tally.sent + tally.failed + tally.skipped + tally.pending > 0;
    const note = pushNote === null ? counts : anyDelivery ? `${pushNote}; ${counts}` : pushNote;
    if (tally.nextAttemptAt !== null) return { kind: "later" as const, runAt: tally.nextAttemptAt, note: `${note} pending=${tally.pending}` };
    return { kind: "advance" as const, next: "done" as const, note };
  };
  if (consumers.length === 0 || !held) return moveOn(due.length > 0);
  return {
    kind: "consumer_lane",
    rest: async () => {
      for (const delivery of consumers) if ((await attempt(deps, holder, delivery, save, archive.relPath, null)) === "lease_lost") break;
      return moveOn(true);
    },
  };
};

/** Consumer webhooks name a player the data API can be asked for ("unknown" is none). */
const PLAYER_ID = /^\d+$/;

/** The push decision and its summary.json; a note when the save is not pushed, and the save's deliveries. */
async function decideAndRecordPush(
  deps: PipelineDeps,
  save: Save,
  archive: { relPath: string },
  outputs: SaveOutputs,
  forcePush: boolean,
  now: number,
): Promise<{ note: string | null; deliveries: Delivery[] }> {
  const targets = await targetsByMode(deps, save, outputs, routeFor(deps.routing, save.playerId, deps.config.notify.defaultRoute));
  const candidate = { saveId: save.id, playerId: save.playerId, dropsFingerprint: save.dropsFingerprint!, checkRepeat: !deps.config.notify.repeat && !forcePush };
  const decision = await deps.deliveries.decidePush(candidate, targets, configuredChannels(deps.config.notify, deps.routing.barkKeys), now);
  // summary.json was written before the decision: it says what was decided (a rewrite is idempotent).
  if (!decision.push || save.repeatOf !== null) {
    const repeatOf = decision.push ? null : decision.repeatOf;
    await deps.archive.replace(archive.relPath, save.id, summaryFile(outputs, repeatOf));
  }
  if (decision.push) return { note: null, deliveries: decision.deliveries };
  const why = `same drops as save ${decision.repeatOf}, the player's last push`;
  logInfo("NOTIFY", "not pushed: repeat of the last push", { player: save.playerId, save: save.id, repeatOf: decision.repeatOf, reason: why });
  return { note: `not pushed: ${why}`, deliveries: decision.deliveries };
}

/** Sends one delivery: to its consumer webhook, or the push message to its channel. */
async function deliver(deps: PipelineDeps, delivery: Delivery, save: Save, archivePath: string, message: PushMessage | null, progress: PartProgress): Promise<void> {
  if (delivery.channel !== DATA_WEBHOOK_CHANNEL) {
    return sendTo({ channel: delivery.channel as Channel, target: delivery.target }, message!, deps.config.notify, deps.routing.barkKeys, progress);
  }
  const hook = await deps.deliveries.dataWebhook(Number(delivery.target));
  if (!hook) throw new DeliveryError(`${DATA_WEBHOOK_CHANNEL}: data webhook ${delivery.target} was removed`, { permanent: true });
  const server = save.region ?? deps.config.api.defaultRegion;
  return sendDataWebhook(hook, { server, userId: save.playerId, dataType: save.dataType }, deps.config.notify.consumers.timeoutMs, archivedSaveBodies(deps.archive, archivePath, save.sha256));
}

async function attempt(
  deps: PipelineDeps,
  holder: LeaseHolder,
  delivery: Delivery,
  save: Save,
  archivePath: string,
  message: PushMessage | null,
): Promise<"done" | "lease_lost"> {
  const { deliveries } = deps;
  const { leaseMs, backoffMs } = deps.config.pipeline;
  const attempts = delivery.attempts + 1;
  const fields = { channel: delivery.channel, target: delivery.target, player: save.playerId, save: save.id, attempt: attempts };
  // This process sent it and the database refused the record: record it, never send it again.
  const answeredAt = answeredUnrecorded(delivery);
  if (answeredAt !== null) {
    await recordSent(deps, delivery.id, delivery.attempts, answeredAt, { ...fields, attempt: delivery.attempts });
    return "done";
  }
  const claim = await deliveries.claimAttempt(holder, { id: delivery.id, seenAttempts: delivery.attempts }, Date.now(), leaseMs);
  if (claim !== "claimed") return claim === "lease_lost" ? "lease_lost" : "done";
  const started = performance.now();
  const progress = {
    done: delivery.partsSent,
    markSent: async (count: number) => {
      if (!(await deliveries.recordPartsSent(holder, delivery.id, count, Date.now(), leaseMs))) throw new LeaseLostError(holder.jobId);
    },
  };
  try {
    await deliver(deps, delivery, save, archivePath, message, progress);
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logWarn("NOTIFY", "lease lost mid-delivery; the parts answered are recorded, the rest is left to the new holder", fields);
      return "lease_lost";
    }
    const reason = redactError(error, deps);
    const permanent = error instanceof DeliveryError ? error.permanent : false;
    const delay = permanent ? null : backoffDelay(attempts, backoffMs);
    const retryAfter = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
    const retryAt = delay === null ? null : Date.now() + Math.max(delay, retryAfter);
    await deliveries.markAttemptFailed({ deliveryId: delivery.id, attempt: attempts }, reason, retryAt);
    metrics.delivery(delivery.channel, retryAt === null ? "failed" : "retry");
    logWarn("NOTIFY", "delivery failed", { ...fields, ms: Math.round(performance.now() - started), outcome: retryAt === null ? "failed" : "retry", error: reason });
    return "done";
  }
  // Answered: from here on a failure is the record's alone (sent-record.ts), never a failed send. The "sent" line
  // follows the record, so it still means committed (a process killed before it may have pushed, unrecorded).
  metrics.delivery(delivery.channel, "sent");
  const ms = Math.round(performance.now() - started);
  await recordSent(deps, delivery.id, attempts, Date.now(), fields);
  logInfo("NOTIFY", "sent", { ...fields, ms, outcome: "sent" });
  return "done";
}
