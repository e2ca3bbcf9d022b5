/** What a stage is: a function of the job that says how the job moves on, plus the writes that go with it
 * (recorded with the job's change in one transaction, src/store/ports/stage-writes.ts). */
import type { ArchiveStore } from "../archive/store.ts";
import type { Config } from "../config/index.ts";
import type { Routing } from "../notify/routing.ts";
import type { DeliveryStore } from "../store/ports/deliveries.ts";
import type { JobStore } from "../store/ports/jobs.ts";
import type { Recorded, StageStore, StageWrites } from "../store/ports/stage-writes.ts";
import type { NotifyReads } from "../store/ports/notify.ts";
import type { WorkerPool } from "./worker-pool.ts";
import type { WatchStore } from "../store/ports/watch.ts";
import type { SetupLinks } from "../store/ports/owner.ts";
import type { NudgeDeps } from "../nudge/run.ts";
import type { UnknownResourceLog } from "./unknown-resources.ts";
import type { ClaimedJob, JobStage, JobSubject, SaveSubject } from "../store/model/jobs.ts";

export interface PipelineDeps {
  config: Config;
  /** Where tasks run: the pool, or a process of their own for a job the service died running (task-process.ts). */
  workers: Pick<WorkerPool, "run">;
  /** push_map.json and bark_map.json; the channels' settings are in `config.notify`. */
  routing: Routing;
  /** Configured secrets (keys, tokens, device keys, webhook URLs) to redact from any error text. */
  secrets: string[];
  archive: ArchiveStore;
  /** The deliveries and the push decision (SQLite's store, or a hub's PostgreSQL). */
  deliveries: DeliveryStore;
  /** The job queue: claims, renewals, transitions (SQLite's store, or a hub's PostgreSQL). */
  jobs: JobStore;
  /** Where a stage's writes are recorded with its job's change. */
  stageStore: StageStore;
  /** What the notify stage reads of the save and its archive. */
  notifyReads: NotifyReads;
  /** Players' watch rules (route modes) and the matches the notify stage records. */
  watch: WatchStore;
  /** The owner's names for players (`players add --name`): maps and pushes show them. */
  links: Pick<SetupLinks, "linkedPlayer">;
  /** Missed-refresh nudges: a partial refresh nudges at once. */
  nudge: NudgeDeps;
  /** Names each resource the catalogue does not know once. */
  logUnknownResources: UnknownResourceLog;
}

/** Runs once the stage's writes and its job's change are committed, given what the store recorded. */
export type AfterCommit = (recorded: Recorded) => void;

export type StageResult =
  /**
   * Move to `next` (or finish with "done"); `afterCommit` runs once the transition is committed. `durable`: commit
   * with fsync, like a push's record, when `afterCommit` undoes something a power cut must not bring back.
   */
  | { kind: "advance"; next: JobStage; writes?: StageWrites; note?: string; afterCommit?: AfterCommit; durable?: boolean }
  /** Come back at `runAt` without spending a retry (deliveries waiting for their backoff). */
  | { kind: "later"; runAt: number; note: string }
  /** A permanent failure: no retries (a save that does not decrypt, a bad report). */
  | { kind: "fail"; reason: string; writes?: StageWrites; afterCommit?: AfterCommit }
  /** No AES key is configured: park until the service starts with keys. */
  | { kind: "wait_for_key" }
  /**
   * The save's chat pushes are done; what is left is its consumer webhooks: `rest` runs in their own lane
   * (consumer-lane.ts), still under the job's lease, and says how the job moves on.
   */
  | { kind: "consumer_lane"; rest: () => Promise<StageResult> };

export interface StageContext {
  now: number;
}

/** A stage of save jobs by default; evaluate is `Stage<ReportSubject>`. */
export type Stage<S extends JobSubject = SaveSubject> = (deps: PipelineDeps, job: ClaimedJob<S>, ctx: StageContext) => Promise<StageResult>;
