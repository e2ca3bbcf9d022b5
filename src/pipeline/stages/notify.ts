/**
 * notify: one delivery row per routed (channel, target). Each is attempted alone and its result committed
 * at once, so a failing channel is retried by itself and a channel already sent is never sent again.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, lte, sql } from "drizzle-orm";
import { archives, deliveries, saves } from "../../db/schema.ts";
import { logInfo, logWarn } from "../../log.ts";
import { configuredChannels, sendTo } from "../../notify/channels.ts";
import { DeliveryError } from "../../notify/errors.ts";
import type { PushMessage } from "../../notify/message.ts";
import { routeFor, type Channel } from "../../notify/routing.ts";
import { backoffDelay } from "../queue.ts";
import { redactError } from "../redact.ts";
import type { PipelineDeps, Stage } from "../stage.ts";

export const notifyStage: Stage = async (deps, job, { now, leaseHeld }) => {
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
    for (const delivery of due) {
      if (!leaseHeld()) break; // another runner owns the job now: it will send what is left
      await attempt(deps, delivery, message);
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
  });
}

type Delivery = typeof deliveries.$inferSelect;

async function attempt(deps: PipelineDeps, delivery: Delivery, message: PushMessage): Promise<void> {
  const { db } = deps;
  const attempts = delivery.attempts + 1;
  // Claim the attempt before sending (a crash mid-send shows up as an attempt); 0 rows: another runner has it.
  const claimed = db
    .update(deliveries)
    .set({ attempts })
    .where(and(eq(deliveries.id, delivery.id), eq(deliveries.state, "pending"), eq(deliveries.attempts, delivery.attempts)))
    .returning({ id: deliveries.id })
    .all();
  if (claimed.length === 0) return;
  const started = performance.now();
  const fields = { channel: delivery.channel, target: delivery.target, player: message.playerId, save: message.saveId, attempt: attempts };
  const progress = {
    done: delivery.partsSent,
    markSent: (count: number) =>
      void db.update(deliveries).set({ partsSent: sql`max(${deliveries.partsSent}, ${count})` }).where(eq(deliveries.id, delivery.id)).run(),
  };
  try {
    await sendTo({ channel: delivery.channel as Channel, target: delivery.target }, message, deps.config.notify, deps.routing.barkKeys, progress);
    db.update(deliveries).set({ state: "sent", sentAt: Date.now(), lastError: null }).where(eq(deliveries.id, delivery.id)).run();
    logInfo("NOTIFY", "sent", { ...fields, ms: Math.round(performance.now() - started), outcome: "sent" });
  } catch (error) {
    const reason = redactError(error, deps);
    const permanent = error instanceof DeliveryError ? error.permanent : false;
    const delay = permanent ? null : backoffDelay(attempts, deps.config.pipeline.backoffMs);
    const retryAfter = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
    const state = delay === null ? "failed" : "pending";
    const nextAttemptAt = Date.now() + Math.max(delay ?? 0, retryAfter);
    db.update(deliveries).set({ state, lastError: reason, nextAttemptAt }).where(eq(deliveries.id, delivery.id)).run();
    logWarn("NOTIFY", "delivery failed", { ...fields, ms: Math.round(performance.now() - started), outcome: state === "failed" ? "failed" : "retry", error: reason });
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
