/** The upload rules both stores share: which task a chunk joins, when a resend is the start of a new save, the open-upload caps. */
import { MAX_UPLOAD_BYTES } from "../../contract.ts";
import type { ChunkHeader } from "../../ingest/chunk-headers.ts";
import { UNKNOWN_PLAYER } from "../../save/player-id.ts";
import type { OverCap, UploadLimits } from "../../store/ports/ingest.ts";
import type { OpenTask, OpenUsage } from "../../store/model/uploads.ts";

/** Completed tasks are remembered this long so a resent chunk is answered without a second save. */
export const COMPLETED_UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A real (digits) player id, or null for none and `unknown`. */
export function realPlayer(id: string | null | undefined): string | null {
  return id && id !== UNKNOWN_PLAYER ? id : null;
}

/**
 * The open task a chunk joins: the latest whose first chunk came with the same player, or with none when this
 * one names none. A chunk never joins another player's task, nor a stranger's chunk a player's.
 */
export function taskToJoin(open: OpenTask[], player: string | null): OpenTask | undefined {
  return open.find((task) => realPlayer(task.playerId) === player);
}

/**
 * Saves share leading chunks (AES-CBC with a fixed IV), so a "resend" may be the start of a new save whose
 * later chunks came first: it then joins that task.
 */
export function isLateFirstPart(task: OpenTask | undefined, taskParts: { chunkIndex: number }[], { chunkIndex, totalChunks }: ChunkHeader): boolean {
  return (
    task?.totalChunks === totalChunks &&
    taskParts.some((part) => part.chunkIndex > chunkIndex) &&
    !taskParts.some((part) => part.chunkIndex === chunkIndex)
  );
}

export interface CapChange {
  peer: string;
  newTask: boolean;
  addedBytes: number;
}

/**
 * The open-upload caps: a new task past the count, or open bytes past the byte cap, is refused with a wait;
 * so is one past the peer's share of either.
 */
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
