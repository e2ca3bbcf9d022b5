/**
 * evaluate (report jobs): find the first candidate body that is a save, turn it into a save with its own job,
 * and drop the other candidates. A report yields one save at most, so it never pushes twice.
 * Undecodable bodies (bad base64) are never tried; a report that yields no save but holds one fails and
 * keeps its candidates, so what was answered 200 stays for the owner to inspect.
 */
import { dataTypeOfUrl } from "../../capture/data-types.ts";
import { saveOrigin } from "../../ingest/save-origin.ts";
import { logInfo, logWarn } from "../../log.ts";
import { metrics } from "../../metrics.ts";
import { playerIdFromUrl } from "../../save/player-id.ts";
import type { Stage } from "../stage.ts";
import type { ReportOutcome as Outcome } from "../../store/ports/stage-writes.ts";
import type { ReportSubject } from "../../store/model/jobs.ts";

export const evaluateStage: Stage<ReportSubject> = async ({ stageStore, config, workers, links }, job, { now }) => {
  const { keys } = config;
  const read = await stageStore.reportToEvaluate(job.subject.reportId);
  if (!read) return { kind: "fail", reason: "report row is missing" };
  const started = performance.now();
  const { report, candidates } = read;

  const logOutcome = (outcome: Outcome, saveId: number | null, player?: string) => {
    metrics.reportEvaluated(outcome);
    const log = outcome === "save" || outcome === "duplicate" ? logInfo : logWarn;
    log("REPORT", "evaluated", {
      report: report.id,
      ...report.meta,
      entries: report.entryCount,
      candidates: candidates.length,
      emptyBodies: report.emptyBodies,
      outcome,
      save: saveId ?? undefined,
      player,
      queuedMs: now - report.receivedAt,
      ms: Math.round(performance.now() - started),
    });
  };
  const close = (outcome: Exclude<Outcome, "save" | "duplicate">, dropCandidates: boolean) => ({ kind: "report_closed" as const, reportId: report.id, outcome, dropCandidates, processedAt: now });

  if (candidates.length === 0) {
    const outcome: Outcome = report.emptyBodies > 0 ? "empty_bodies" : "no_save";
    return {
      kind: "advance",
      next: "done",
      note: outcome === "empty_bodies" ? "capture tool sent empty bodies" : "no candidate bodies",
      writes: close(outcome, false),
      afterCommit: () => logOutcome(outcome, null),
    };
  }
  // A report of a whole session may hold the save and a birthday party's delivery: the save comes first.
  const decodable = candidates.filter((c) => !c.undecodable).sort((a, b) => Number(dataTypeOfUrl(a.url) !== "mysekai") - Number(dataTypeOfUrl(b.url) !== "mysekai"));
  const undecodable = candidates.find((c) => c.undecodable);
  if (decodable.length > 0 && keys.length === 0) return { kind: "wait_for_key" };

  const found =
    decodable.length === 0
      ? { save: null, partial: null, decryptedAny: false }
      : await workers.run("evaluate", { bodies: decodable.map((c) => c.body), keys });

  if (found.save !== null) {
    const candidate = decodable[found.save]!;
    const playerId = playerIdFromUrl(candidate.url);
    // A report carries no player's credential: one naming a player who uploads through their own link is refused.
    if ((await links.linkedPlayer(playerId))?.linkOnlySince != null) {
      return {
        kind: "fail",
        reason: `a report names player ${playerId}, who uploads only through their own link; not taken (\`cli players unlock ${playerId}\` to take such reports again)`,
        writes: close("no_save", false),
        afterCommit: () => logOutcome("no_save", null, playerId),
      };
    }
    return {
      kind: "advance",
      next: "done",
      note: `save from entry ${candidate.entryIndex} (${candidate.part})`,
      writes: { kind: "report_save", reportId: report.id, save: { encrypted: candidate.body, playerId, source: "report", receivedAt: report.receivedAt, origin: saveOrigin(candidate.url) }, processedAt: now },
      afterCommit: ({ saved }) => logOutcome(saved?.created ? "save" : "duplicate", saved?.saveId ?? null, playerId),
    };
  }
  if (undecodable !== undefined) {
    return {
      kind: "fail",
      reason: `entry ${undecodable.entryIndex} ${undecodable.part} body is not valid base64; kept for inspection`,
      writes: close("no_save", false),
      afterCommit: () => logOutcome("no_save", null),
    };
  }
  if (!found.decryptedAny) {
    return {
      kind: "fail",
      reason: "no candidate decrypts under the configured keys; candidates kept: fix AES_KEY/AES_IV, then `npm run cli -- retry --failed`",
      writes: close("no_save", false),
      afterCommit: () => logOutcome("no_save", null),
    };
  }
  const outcome: Outcome = found.partial !== null ? "partial_save" : "no_save";
  return {
    kind: "advance",
    next: "done",
    note: outcome === "partial_save" ? "partial refresh without harvest maps: nothing to draw" : "no candidate is a save",
    writes: close(outcome, true),
    afterCommit: () => logOutcome(outcome, null),
  };
};
