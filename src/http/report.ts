/**
 * POST {REPORT_PATH}: a capture tool's HAR report. The request path only validates, extracts candidate
 * bodies and commits them; decryption happens in the pipeline, so a wrong key never loses a report.
 */
import { Hono } from "hono";
import { cappedMessage, declaredTooLarge } from "../ingest/capped-body.ts";
import { readReportBody } from "../ingest/decompress.ts";
import { extractCandidates } from "../ingest/har.ts";
import { proxyPinMeta, reqableMeta } from "../ingest/har-meta.ts";
import { logInfo, logWarn } from "../log.ts";
import { playerIdFromUrl, refusedPlayerId } from "../save/player-id.ts";
import type { HttpDeps } from "./deps.ts";

/** Where REPORT_TOKEN may come (checked in front of every guard, src/http/app.ts): ours, and Reqable's tag. */
export const REPORT_TOKEN_HEADERS = ["x-report-token", "x-reqable-reporter-tag"];

export function reportRoutes({ reports, config, wakePipeline }: HttpDeps): Hono {
  const app = new Hono();
  const { report } = config;
  if (!report.enabled) return app;

  app.post(report.path, async (c) => {
    const started = performance.now();
    const meta = { ...reqableMeta(c.req.raw.headers), ...proxyPinMeta(c.req.raw.headers) };
    const reject = (status: 400 | 401 | 408 | 413 | 429 | 503, reason: string, retryAfterSeconds?: number) => {
      logWarn("REPORT", "rejected", { ...meta, status, reason });
      if (retryAfterSeconds !== undefined) c.header("Retry-After", String(retryAfterSeconds));
      return c.text(reason, status);
    };
    if (declaredTooLarge(c.req.header("content-length"), report.maxEncodedBytes)) {
      return reject(413, cappedMessage("report body", report.maxEncodedBytes));
    }
    const body = await readReportBody(c.req.raw.body, {
      contentEncoding: c.req.header("content-encoding") ?? null,
      maxEncodedBytes: report.maxEncodedBytes,
      maxDecodedBytes: report.maxDecodedBytes,
      flow: { gate: c.get("bodyGate"), pace: config.bodyPace },
    });
    if (!body.ok) return reject(body.status, body.reason, body.retryAfterSeconds);

    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder().decode(body.bytes));
    } catch {
      return reject(400, "report body is not JSON (HAR expected)");
    }
    const extraction = extractCandidates(doc, c.req.header("x-report-phase") ?? null, report);
    if ("error" in extraction) return reject(extraction.status, extraction.error);
    const refused = extraction.candidates.map((candidate) => refusedPlayerId(playerIdFromUrl(candidate.url))).find((reason) => reason !== null);
    if (refused) return reject(400, `a session's URL names ${refused}`);

    const receivedAt = Date.now();
    const commitStarted = performance.now();
    const reportId = await reports.store(extraction, meta, receivedAt);
    const commitMs = performance.now() - commitStarted;
    wakePipeline();
    const undecodable = extraction.candidates.filter((candidate) => candidate.undecodable).length;
    const fields = {
      report: reportId,
      ...meta,
      shape: extraction.shape,
      entries: extraction.entryCount,
      candidates: extraction.candidates.length,
      emptyBodies: extraction.emptyBodies,
      otherBodies: extraction.otherBodies,
      skipped: extraction.skippedEntries + extraction.skippedBodies,
      encoding: body.encoding,
      bytes: body.bytes.byteLength,
      commitMs: Math.round(commitMs * 10) / 10,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (undecodable > 0) {
      logWarn("REPORT", `received ${undecodable} undecodable bodies (kept for inspection)`, fields);
    } else if (extraction.candidates.length === 0 && extraction.emptyBodies > 0) {
      logWarn("REPORT", "received only empty bodies (known capture-tool bug)", fields);
    } else {
      logInfo("REPORT", "received", fields);
    }
    return c.text("ok");
  });
  return app;
}
