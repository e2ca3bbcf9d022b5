/**
 * notify: route the save, record a delivery per routed target, then attempt each due delivery alone and record
 * its result at once (src/db/deliveries.ts keeps the rows; every attempt and part is claimed under the lease).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import {
  claimDeliveryAttempt,
  createDeliveries,
  deliveryTally,
  dueDeliveries,
  markAttemptFailed,
  markSent,
  recordPartsSent,
  type Delivery,
  type LeaseHolder,
} from "../../db/deliveries.ts";
import { archives, saves } from "../../db/schema.ts";
import { logInfo, logWarn } from "../../log.ts";
import { configuredChannels, sendTo } from "../../notify/channels.ts";
import { DeliveryError } from "../../notify/errors.ts";
import type { PushMessage } from "../../notify/message.ts";
import { routeFor, type Channel } from "../../notify/routing.ts";
import { backoffDelay, LeaseLostError } from "../queue.ts";
import { redactError } from "../redact.ts";
import type { PipelineDeps, Stage } from "../stage.ts";

export const notifyStage: Stage = async (deps, job, { now }) => {
  const { db } = deps;
  const { saveId } = job.subject;
  const save = db.select().from(saves).where(eq(saves.id, saveId)).get();
  const archive = db.select().from(archives).where(eq(archives.saveId, saveId)).get();
  if (!save || !archive) return { kind: "fail", reason: "notify needs the save and its archive" };
  if (!job.notify) return { kind: "advance", next: "done", note: "push not requested (reprocess without --notify)" };
  if (!archive.files.some((name) => name.endsWith(".png"))) return { kind: "advance", next: "done", note: "no maps to push (partial refresh)" };

  const targets = routeFor(deps.routing, save.playerId, deps.config.notify.defaultRoute);
  createDeliveries(db, save.id, targets, configuredChannels(deps.config.notify, deps.routing.barkKeys), now);
  const due = dueDeliveries(db, save.id, now);
  if (due.length > 0) {
    const message = await buildMessage(deps, save, archive);
    const holder = { jobId: job.id, leaseId: job.leaseId };
    for (const delivery of due) {
      // Another runner owns the job now: it sends what is left.
      if ((await attempt(deps, holder, delivery, message)) === "lease_lost") break;
    }
  }

  const tally = deliveryTally(db, save.id);
  const note = `sent=${tally.sent} failed=${tally.failed} skipped=${tally.skipped}`;
  if (tally.nextAttemptAt !== null) return { kind: "later", runAt: tally.nextAttemptAt, note: `${note} pending=${tally.pending}` };
  return { kind: "advance", next: "done", note };
};

async function attempt(deps: PipelineDeps, holder: LeaseHolder, delivery: Delivery, message: PushMessage): Promise<"done" | "lease_lost"> {
  const { db } = deps;
  const { leaseMs, backoffMs } = deps.config.pipeline;
  const attempts = delivery.attempts + 1;
  const claim = claimDeliveryAttempt(db, holder, { id: delivery.id, seenAttempts: delivery.attempts }, Date.now(), leaseMs);
  if (claim !== "claimed") return claim === "lease_lost" ? "lease_lost" : "done";
  const started = performance.now();
  const fields = { channel: delivery.channel, target: delivery.target, player: message.playerId, save: message.saveId, attempt: attempts };
  const progress = {
    done: delivery.partsSent,
    markSent: (count: number) => {
      if (!recordPartsSent(db, holder, delivery.id, count, Date.now(), leaseMs)) throw new LeaseLostError(holder.jobId);
    },
  };
  try {
    await sendTo({ channel: delivery.channel as Channel, target: delivery.target }, message, deps.config.notify, deps.routing.barkKeys, progress);
    markSent(db, delivery.id, Date.now());
    logInfo("NOTIFY", "sent", { ...fields, ms: Math.round(performance.now() - started), outcome: "sent" });
    return "done";
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
    markAttemptFailed(db, { deliveryId: delivery.id, attempt: attempts }, reason, retryAt);
    logWarn("NOTIFY", "delivery failed", { ...fields, ms: Math.round(performance.now() - started), outcome: retryAt === null ? "failed" : "retry", error: reason });
    return "done";
  }
}

async function buildMessage(
  deps: PipelineDeps,
  save: typeof saves.$inferSelect,
  archive: typeof archives.$inferSelect,
): Promise<PushMessage> {
  const dir = join(deps.archiveRoot, archive.relPath);
  const read = (name: string) => readFile(join(dir, name));
  const rareText = archive.files.includes("rare_resources.txt") ? (await read("rare_resources.txt")).toString("utf8") : "";
  const [firstLine = "", ...rest] = rareText.split("\n");
  const summary = archive.files.includes("summary.json") ? JSON.parse((await read("summary.json")).toString("utf8")) : null;
  const pngs = archive.files.filter((name) => name.endsWith(".png")).sort(mapOrder);
  const images = await Promise.all(pngs.map(async (name) => ({ name, png: new Uint8Array(await read(name)), url: imageUrl(deps, archive, name) })));
  const title = firstLine.trim() || `MySekai ${save.playerId}`;
  const summaryText = rest.join("\n").trim();
  return { playerId: save.playerId, saveId: save.id, capturedAt: new Date(save.receivedAt), title, summaryText, summary, images };
}

/** Site maps in site order, the overview last. */
function mapOrder(a: string, b: string): number {
  const rank = (name: string) => (name === "overview.png" ? Number.MAX_SAFE_INTEGER : Number(/\d+/.exec(name)?.[0] ?? 0));
  return rank(a) - rank(b);
}

function imageUrl(deps: PipelineDeps, archive: typeof archives.$inferSelect, name: string): string | null {
  if (deps.config.publicBaseUrl) return `${deps.config.publicBaseUrl}/maps/${archive.token}/${name}`;
  const base = deps.config.notify.imageBase;
  return base ? `${base}/archive/${archive.relPath}/${name}` : null;
}
