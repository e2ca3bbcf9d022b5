/** Upload tasks, their held chunks, reports and their candidate bodies as both stores hold them. */

/** An upload task (`upload_tasks`): open while chunks are missing, then completed with its save. */
export interface UploadTaskRow {
  id: number;
  uploadId: string;
  totalChunks: number;
  playerId: string | null;
  /** Bytes of the chunks held while the task is open (for the open-upload caps). */
  bytes: number;
  /** The address that opened the task. */
  peer: string | null;
  /** sha256 hex per chunk index, recorded at completion. */
  chunkHashes: string[] | null;
  saveId: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A chunk held by a task (`upload_task_chunks`). */
export interface UploadChunkRow {
  taskId: number;
  chunkIndex: number;
  size: number;
  sha256: string;
  body: Uint8Array;
}

export type ReportOutcome = "save" | "duplicate" | "no_save" | "empty_bodies" | "partial_save";

/** A report as received (`reports`); its outcome once evaluated. */
export interface ReportRow {
  id: number;
  receivedAt: number;
  shape: string;
  entryCount: number;
  candidateCount: number;
  emptyBodies: number;
  meta: Record<string, string>;
  outcome: ReportOutcome | null;
  saveId: number | null;
  processedAt: number | null;
}

/** One candidate body of a report (`report_candidates`), waiting for evaluate. */
export interface ReportCandidateRow {
  reportId: number;
  seq: number;
  entryIndex: number;
  part: "response" | "request";
  url: string | null;
  body: Uint8Array;
  /** The body text could not be decoded (bad base64) and is kept as its UTF-8 text. */
  undecodable: boolean;
}

/** An open task as a chunk sees it. */
export type OpenTask = Pick<UploadTaskRow, "id" | "totalChunks" | "playerId" | "bytes">;

/** What live open tasks hold (all, or one peer's), for the open-upload caps. */
export interface OpenUsage {
  count: number;
  bytes: number;
  oldestCreatedAt: number | null;
}
