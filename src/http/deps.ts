import type { ArchiveStore } from "../archive/store.ts";
import type { Config } from "../config/index.ts";
import type { ApiOptions } from "./api/routes.ts";
import type { DiskWatch } from "../disk-space.ts";
import type { IngestActivity } from "../ingest/activity.ts";
import type { OwnerStore } from "../store/ports/owner.ts";
import type { ReportStore, UploadStore } from "../store/ports/ingest.ts";
import type { PageReads } from "../store/ports/pages.ts";
import type { JobStore } from "../store/ports/jobs.ts";
import type { WatchStore } from "../store/ports/watch.ts";
import type { SpawnMonths } from "../spawns/month.ts";
import type { NudgeStore } from "../store/ports/nudges.ts";
import type { CaptureHealthReads } from "../store/ports/pages.ts";

/** What the routes need: the store, the configuration, and a way to wake the pipeline after a commit. */
export interface HttpDeps {
  /** The owner's retry from the status page. */
  jobs: Pick<JobStore, "retryFailed">;
  /** Owner sessions, the login throttle, setup tokens, player links, API tokens, public switches, data webhooks. */
  owner: OwnerStore;
  /** Upload chunks, committed before their answer. */
  uploads: UploadStore;
  /** Reports, committed before their answer. */
  reports: ReportStore;
  config: Config;
  /** Where /maps/<token>/<file> reads from. */
  archive: ArchiveStore;
  wakePipeline: () => void;
  /** After the owner requeued `jobs` at once: a sleeping slot for each. */
  wakePipelineFor: (jobs: number) => void;
  /** Whether a free slot of this process's pipeline will take the next new job (src/pipeline/slot-wakes.ts). */
  keepsNextJob?: () => boolean;
  /** Uploads and reports in flight: the pipeline waits for a pause in them before its next stage. */
  ingest: Pick<IngestActivity, "begin" | "end">;
  /** DATA_DIR's free space against MIN_FREE_DISK_MB (a cached reading, refreshed every few seconds). */
  disk: Pick<DiskWatch, "isFull" | "reading" | "floorBytes">;
  /** Every configured secret (keys, tokens, webhook URLs, Bark device keys), to redact from any shown text. */
  secrets: string[];
  /** Why this process's pipeline cannot write, or null (src/pipeline/write-health.ts): /healthz and the status page say it. */
  pipelineWriteProblem?: () => string | null;
  /** No push channel is configured (the owner's page says so). */
  pushesOff: boolean;
  /** What the owner's pages, the players' pages, /healthz and /metrics show. */
  pages: PageReads;
  /** Players' watch rules (their page's form) and what they matched (their history). */
  watch: WatchStore;
  /** The player's page: their newest save and newest failure. */
  captureHealth: CaptureHealthReads;
  /** Players' month of rare spawns, drawn on demand and cached until their next save. */
  spawns: SpawnMonths;
  /** Players' missed-refresh nudge switches (their page's form). */
  nudges: Pick<NudgeStore, "setNudge" | "nudgePlayer">;
  /** The data API's reads and its cache of saves as JSON (src/http/api). */
  api: ApiOptions;
}
