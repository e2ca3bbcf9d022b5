/** The open-upload caps, for a chunk that would open or grow a task (src/db/uploads.ts): reads only. */
import { MAX_UPLOAD_BYTES } from "../../contract.ts";
import type { Tx } from "../open.ts";
import { openUsage, type OpenUsage } from "./sqlite-task-queries.ts";
import type { UploadLimits } from "./sqlite.ts";

export interface OverCap {
  kind: "over_cap";
  reason: string;
  retryAfterSeconds: number;
}

/**
 * The open-upload caps: a new task past the count, or open bytes past the byte cap, is refused with a wait;
 * so is one past the peer's share of either.
 */
export function checkOpenCaps(tx: Tx, limits: UploadLimits, now: number, change: CapChange): OverCap | null {
  const liveSince = now - limits.ttlMs;
  return capVerdict(limits, now, change, openUsage(tx, liveSince), openUsage(tx, liveSince, change.peer));
}

export interface CapChange {
  peer: string;
  newTask: boolean;
  addedBytes: number;
}

/** The caps' rule over what open tasks hold (all of them, and the peer's): each store reads the usage its way. */
export function capVerdict(limits: UploadLimits, now: number, change: CapChange, usage: OpenUsage, mine: OpenUsage): OverCap | null {
  const peerOpen = Math.max(1, Math.floor(limits.maxOpen * limits.peerShare));
  const peerBytes = Math.max(MAX_UPLOAD_BYTES, Math.floor(limits.maxOpenBytes * limits.peerShare));
  let reason: string | null = null;
  if (change.newTask && usage.count + 1 > limits.maxOpen) reason = `too many open uploads (${limits.maxOpen}); retry later`;
  else if (usage.bytes + change.addedBytes > limits.maxOpenBytes) reason = `open uploads hold too many bytes (${limits.maxOpenBytes}); retry later`;
  else if (change.newTask && mine.count + 1 > peerOpen) reason = `too many open uploads from your address (${peerOpen}); retry later`;
  else if (mine.bytes + change.addedBytes > peerBytes) reason = `open uploads from your address hold too many bytes (${peerBytes}); retry later`;
  if (reason === null) return null;
  // The oldest open task frees its room when it expires.
  const retryAfterMs = usage.oldestCreatedAt === null ? 0 : usage.oldestCreatedAt + limits.ttlMs - now;
  return { kind: "over_cap", reason, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

