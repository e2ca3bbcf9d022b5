/**
 * Where a stage's own writes are recorded, async so that a hub's PostgreSQL can stand behind it: the rows a stage
 * produced and its job's change commit in one transaction under the lease fence, so both happen or neither does.
 * The writes are statements written once (src/db/stage-writes/rules.ts), run by SQLite's store in one synchronous
 * transaction and by PostgreSQL's over the network; both pass tests/contract/stage-store.contract.test.ts.
 */
import type { ClaimedJob, Transition } from "../model/jobs.ts";
import type { RefreshDigest } from "../../maps/refresh-digest.ts";
import type { SaveOutputs } from "../../maps/save-outputs.ts";
import type { NewSave, SaveRow } from "../model/saves.ts";
import type { ReportCandidateRow, ReportOutcome, ReportRow } from "../model/uploads.ts";

export type { ReportOutcome } from "../model/uploads.ts";

/** What a stage wrote, as data: each store turns it into its own statements. */
export type StageWrites =
  /** generate: the save's outputs model and drops' fingerprint, and its archives row (inserted, or re-pointed). */
  | { kind: "drawn"; saveId: number; outputs: SaveOutputs; dropsFingerprint: string; archive: ArchiveRow }
  /** evaluate found no save: the report's outcome, and its candidates dropped unless kept for inspection. */
  | { kind: "report_closed"; reportId: number; outcome: Exclude<ReportOutcome, "save" | "duplicate">; dropCandidates: boolean; processedAt: number }
  /** evaluate found a save: stored once by its sha256 (an `unknown` one adopts this player id), the report closed. */
  | { kind: "report_save"; reportId: number; save: NewSave; processedAt: number };

export interface ArchiveRow {
  playerId: string;
  relPath: string;
  files: string[];
  digest: RefreshDigest;
  /** Used on insert only: a re-pointed row keeps its token, so /maps/<token>/… URLs already pushed keep working. */
  token: string;
}

/** What the record did: the job moved as asked, or went back to generate (flagged for redraw meanwhile). */
export interface Recorded {
  moved: "recorded" | "redraw";
  /** report_save's save: its id, and whether this report created it. */
  saved?: { saveId: number; created: boolean };
}

export type StageSave = SaveRow;
export type StageReport = ReportRow;
export type StageCandidate = ReportCandidateRow;

export interface StageStore {
  /**
   * Applies `writes` and the job's `change` in one transaction while the job's lease is held; a save flagged for
   * redraw while the stage ran goes back to generate instead of `change` (its writes still recorded). Throws
   * LeaseLostError, recording nothing, when the lease is not held. `durable`: SQLite waits for the disk
   * (a change a power cut must not undo); otherwise it may commit without waiting, as claims do.
   */
  record(job: ClaimedJob, writes: StageWrites | undefined, change: Transition, now: number, durable: boolean): Promise<Recorded>;
  /** What generate reads: the save and its archive's folder (null before its first archive); null when the save is gone. */
  saveToDraw(saveId: number): Promise<{ save: StageSave; archivePath: string | null } | null>;
  /**
   * Claims the bucket folder `relPath` for `saveId` unless another save holds it: whether `saveId` holds it now.
   * Atomic on both stores, so of two saves claiming one folder at once exactly one gets it (src/pipeline/archive-folder.ts).
   */
  claimArchiveFolder(saveId: number, relPath: string): Promise<boolean>;
  /** What evaluate reads: the report and its candidate bodies in order; null when the report is gone. */
  reportToEvaluate(reportId: number): Promise<{ report: StageReport; candidates: StageCandidate[] } | null>;
  /** The player id of a save, for the runner's log lines; undefined when it has none. */
  playerOf(saveId: number): Promise<string | undefined>;
}
