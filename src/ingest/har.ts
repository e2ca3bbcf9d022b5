/**
 * Finds the candidate bodies of a capture-tool report. No decryption here: the pipeline later
 * tries the candidates in order and keeps the first that is a save.
 *
 * Accepted shapes:
 * - "har": a whole HAR `{log:{entries:[...]}}` (Reqable), or a bare array of entries
 *   (ProxyPin's SSE `X-Report-Phase: message` batches).
 * - "entry": one bare HAR entry `{request, response, ...}` (ProxyPin).
 * - "split-request" / "split-response": ProxyPin's split reports, phase from the
 *   `X-Report-Phase` header or, failing that, the entry's own `_phase` field. ProxyPin sends
 *   an entry (`response: null` for the request phase, a `request` of only method and url for
 *   the response phase); a bare request or response object is accepted for those phases too.
 *
 * Per entry the response body comes first, then the request body. Only a body that could be a
 * save (AES-CBC: non-empty, a multiple of 16 bytes) is a candidate; other bodies are counted.
 * Empty bodies (text "" on a response, or text missing while the declared size is > 0) are
 * counted apart; a GET's absent request body is not "empty". Malformed entries are counted too.
 * A body declared base64 that still does not decode is a candidate marked `undecodable` (its
 * UTF-8 text), so a report answered 200 never loses it silently.
 *
 * Caps: more entries than `maxEntries` or more candidates than `maxCandidates` is a 413; the walk
 * stops at the first candidate past the cap, so junk costs no work beyond it.
 */
import { declaredSize, isRecord, readBodyText, type BodyText } from "./har-body.ts";

export { proxyPinMeta, reqableMeta, type ProxyPinMeta, type ReqableMeta } from "./har-meta.ts";

export interface HarCandidate {
  entryIndex: number;
  part: "response" | "request";
  url: string | null;
  body: Uint8Array;
  /** The body was declared base64 but is not: `body` holds its text as UTF-8, kept for inspection. */
  undecodable: boolean;
}

export type HarShape = "har" | "entry" | "split-request" | "split-response";

export interface HarExtraction {
  shape: HarShape;
  entryCount: number;
  candidates: HarCandidate[];
  emptyBodies: number;
  /** Non-empty bodies that cannot be a save (not a multiple of 16 bytes): counted, not stored. */
  otherBodies: number;
  /** Entries that are not objects, or whose request/response have the wrong type. */
  skippedEntries: number;
  /** Body holders of the wrong type: text that is not a string ... */
  skippedBodies: number;
  /** Short reasons for what was skipped, for the log (at most MAX_NOTES). */
  notes: string[];
}

export type HarResult = HarExtraction | { error: string; status: 400 | 413 };

export interface HarLimits {
  maxEntries: number;
  maxCandidates: number;
}

const CANDIDATE_BLOCK = 16;

const MAX_NOTES = 10;

type SplitPhase = "request" | "response";

function splitPhase(value: unknown): SplitPhase | null {
  if (typeof value !== "string") return null;
  const phase = value.trim().toLowerCase();
  return phase === "request" || phase === "response" ? phase : null;
}

function looksLikeRequest(doc: Record<string, unknown>): boolean {
  return typeof doc.url === "string" || typeof doc.method === "string" || isRecord(doc.postData);
}

function looksLikeResponse(doc: Record<string, unknown>): boolean {
  return isRecord(doc.content) || typeof doc.status === "number";
}

/** Entry-like: a request or a response object (ProxyPin's request phase has `response: null`). */
function hasEntryParts(doc: Record<string, unknown>): boolean {
  return isRecord(doc.request) || isRecord(doc.response);
}

const notHar = (error: string): HarResult => ({ error, status: 400 });

export function extractCandidates(doc: unknown, phase: string | null, limits: HarLimits): HarResult {
  if (Array.isArray(doc)) return extractEntries(doc, "har", limits);
  if (!isRecord(doc)) return notHar("report is not a JSON object");
  if ("log" in doc) {
    const log = doc.log;
    if (!isRecord(log) || !Array.isArray(log.entries)) return notHar("HAR log.entries is missing or not an array");
    return extractEntries(log.entries, "har", limits);
  }
  const split = splitPhase(phase) ?? splitPhase(doc._phase);
  if (hasEntryParts(doc)) return extractEntries([doc], split === null ? "entry" : `split-${split}`, limits);
  if (split === "request" && looksLikeRequest(doc)) return extractEntries([{ request: doc }], "split-request", limits);
  if (split === "response" && looksLikeResponse(doc)) return extractEntries([{ response: doc }], "split-response", limits);
  return notHar("report is not HAR: no log.entries, request or response");
}

function extractEntries(entries: readonly unknown[], shape: HarShape, limits: HarLimits): HarResult {
  if (entries.length > limits.maxEntries) return { error: `report has more than ${limits.maxEntries} entries`, status: 413 };
  const out: HarExtraction = {
    shape,
    entryCount: entries.length,
    candidates: [],
    emptyBodies: 0,
    otherBodies: 0,
    skippedEntries: 0,
    skippedBodies: 0,
    notes: [],
  };
  for (const [index, entry] of entries.entries()) {
    extractEntry(entry, index, out);
    if (out.candidates.length > limits.maxCandidates) {
      return { error: `report has more than ${limits.maxCandidates} candidate bodies`, status: 413 };
    }
  }
  return out;
}

function note(out: HarExtraction, text: string): void {
  if (out.notes.length < MAX_NOTES) out.notes.push(text);
}

/** An entry's request or response: the object, null when absent, "malformed" for a wrong type. */
function entryPart(value: unknown): Record<string, unknown> | null | "malformed" {
  if (value === undefined || value === null) return null;
  return isRecord(value) ? value : "malformed";
}

function extractEntry(entry: unknown, index: number, out: HarExtraction): void {
  const request = isRecord(entry) ? entryPart(entry.request) : "malformed";
  const response = isRecord(entry) ? entryPart(entry.response) : "malformed";
  if (request === "malformed" || response === "malformed" || (request === null && response === null)) {
    out.skippedEntries++;
    note(out, `entry ${index}: not a HAR entry`);
    return;
  }
  const url = typeof request?.url === "string" ? request.url : null;
  if (response !== null) {
    const body = readBodyText(response.content);
    const size = declaredSize(isRecord(response.content) ? response.content.size : undefined, response.bodySize);
    take(out, index, "response", url, body, body.kind === "empty" || (body.kind === "absent" && size > 0));
  }
  if (request !== null) {
    const body = readBodyText(request.postData);
    const size = declaredSize(request.bodySize, isRecord(request.postData) ? request.postData.size : undefined);
    take(out, index, "request", url, body, (body.kind === "empty" || body.kind === "absent") && size > 0);
  }
}

function take(
  out: HarExtraction,
  entryIndex: number,
  part: HarCandidate["part"],
  url: string | null,
  body: BodyText,
  countsAsEmpty: boolean,
): void {
  if (body.kind === "bytes") {
    if (body.bytes.byteLength % CANDIDATE_BLOCK === 0) out.candidates.push({ entryIndex, part, url, body: body.bytes, undecodable: false });
    else out.otherBodies++;
  } else if (body.kind === "undecodable") {
    out.candidates.push({ entryIndex, part, url, body: new TextEncoder().encode(body.text), undecodable: true });
    note(out, `entry ${entryIndex} ${part}: ${body.reason}`);
  } else if (body.kind === "invalid") {
    out.skippedBodies++;
    note(out, `entry ${entryIndex} ${part}: ${body.reason}`);
  } else if (countsAsEmpty) {
    out.emptyBodies++;
  }
}
