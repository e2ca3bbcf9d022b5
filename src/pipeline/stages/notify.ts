/**
 * notify: one delivery row per routed (channel, target). Each is attempted alone and its result committed
 * at once, so a failing channel is retried by itself and a channel already sent is never sent again. Every
 * attempt and every further part is claimed under the job's lease (send-fence.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, inArray, lte } from "drizzle-orm";
import { archives, deliveries, saves } from "../../db/schema.ts";
import { logInfo, logWarn } from "../../log.ts";
import { metrics } from "../../metrics.ts";
import { configuredChannels, sendTo } from "../../notify/channels.ts";
import { DeliveryError } from "../../notify/errors.ts";
import type { PushMessage } from "../../notify/message.ts";
import { routeFor, type Channel } from "../../notify/routing.ts";
import { backoffDelay, LeaseLostError } from "../queue.ts";
import { redactError } from "../redact.ts";
import { claimDeliveryAttempt, recordPartsSent, type LeaseHolder } from "../send-fence.ts";
import type { PipelineDeps, Stage } from "../stage.ts";

export const notifyStage: Stage = async (deps, job, { now }) => {
  const { db } = deps;
  const save = db.select().from(saves).where(eq(saves.id, job.saveId!)).get();
  const archive = db.select().from(archives).where(eq(archives.saveId, job.saveId!)).get();
  if (!save || !archive) return { kind: "fail", reason: "notify needs the save and its archive" };
  if (!job.notify) return { kind: "advance", next: "done", note: "push not requested (reprocess without --notify)" };
  if (!archive.files.some((name) => name.endsWith(".png"))) return { kind: "advance", next: "done", note: "no maps to push (partial refresh)" };

  createDeliveries(deps, save.id, save.playerId, now);
  const due = db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.saveId, save.id), eq(deliveries.state, "pending"), lte(deliveries.nextAttemptAt, now)))
    .all();
  if (due.length > 0) {
    const message = await buildMessage(deps, save, archive);
    const holder = { jobId: job.id, leaseId: job.leaseId };
    for (const delivery of due) {
      // Another runner owns the job now: it sends what is left.
      if ((await attempt(deps, holder, delivery, message)) === "lease_lost") break;
    }
  }

  const rows = db.select().from(deliveries).where(eq(deliveries.saveId, save.id)).all();
  const pending = rows.filter((row) => row.state === "pending");
  const tally = (["sent", "failed", "skipped"] as const).map((state) => `${state}=${rows.filter((r) => r.state === state).length}`).join(" ");
  if (pending.length > 0) {
    return { kind: "later", runAt: Math.min(...pending.map((row) => row.nextAttemptAt)), note: `${tally} pending=${pending.length}` };
  }
  return { kind: "advance", next: "done", note: tally };
};

function createDeliveries(deps: PipelineDeps, saveId: number, playerId: string, now: number): void {
  const targets = routeFor(deps.routing, playerId, deps.config.notify.defaultRoute);
  const configured = configuredChannels(deps.config.notify, deps.routing.barkKeys);
  deps.db.transaction((tx) => {
    for (const target of targets) {
      const problem = target.problem ?? (configured.has(target.channel) ? undefined : `channel ${target.channel} is not configured`);
      tx.insert(deliveries)
        .values({
          saveId,
          channel: target.channel,
          target: target.target,
          state: problem ? "skipped" : "pending",
          lastError: problem ?? null,
          nextAttemptAt: now,
          createdAt: now,
        })
        .onConflictDoNothing()
        .run();
    }
    // A target no longer routed (the save took a real player id, or push_map.json changed) gets nothing not yet sent.
    const pending = tx.select().from(deliveries).where(and(eq(deliveries.saveId, saveId), eq(deliveries.state, "pending"))).all();
    const stale = pending.filter((row) => !targets.some((target) => target.channel === row.channel && target.target === row.target));
    if (stale.length > 0) {
      tx.update(deliveries)
        .set({ state: "skipped", lastError: "no longer routed to this player" })
        .where(inArray(deliveries.id, stale.map((row) => row.id)))
        .run();
    }
  });
}

type Delivery = typeof deliveries.$inferSelect;

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
  // Only while the row still shows this attempt: a runner that took the job over may be on the next one.
  const ours = and(eq(deliveries.id, delivery.id), eq(deliveries.state, "pending"), eq(deliveries.attempts, attempts));
  try {
    await sendTo({ channel: delivery.channel as Channel, target: delivery.target }, message, deps.config.notify, deps.routing.barkKeys, progress);
    db.update(deliveries).set({ state: "sent", sentAt: Date.now(), lastError: null }).where(eq(deliveries.id, delivery.id)).run();
    metrics.delivery(delivery.channel, "sent");
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
    const state = delay === null ? "failed" : "pending";
    const nextAttemptAt = Date.now() + Math.max(delay ?? 0, retryAfter);
    db.update(deliveries).set({ state, lastError: reason, nextAttemptAt }).where(ours).run();
    metrics.delivery(delivery.channel, state === "failed" ? "failed" : "retry");
    logWarn("NOTIFY", "delivery failed", { ...fields, ms: Math.round(performance.now() - started), outcome: state === "failed" ? "failed" : "retry", error: reason });
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
