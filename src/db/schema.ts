/** The drizzle schema: the single source of truth for the SQLite file. Times are ms since epoch. */
import { customType, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DATA_TYPES } from "../capture/data-types.ts";
import type { Region } from "../capture/regions.ts";
import type { RefreshDigest } from "../maps/refresh-digest.ts";
import type { SaveOutputs } from "../maps/save-outputs.ts";

/**
 * A BLOB as bun:sqlite hands it over (a Uint8Array of its own), and bound as given: drizzle's buffer mode copies
 * every value into a Buffer on the way out, ~1.5 MB of garbage per save in the pipeline's reads.
 */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "blob" });

/**
 * One row per upload task. A task is keyed by its X-Upload-Id and player, and stays after completion (with
 * the sha256 of every chunk) so that a resent chunk is recognised; a chunk with other bytes starts a new task.
 */
export const uploads = sqliteTable(
  "upload_tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uploadId: text("upload_id").notNull(),
    totalChunks: integer("total_chunks").notNull(),
    playerId: text("player_id"),
    /** Bytes of the chunks held while the task is open (for the open-upload cap). */
    bytes: integer("bytes").notNull().default(0),
    /** The address that opened the task: one peer holds at most a share of the open-upload caps. */
    peer: text("peer"),
    /** sha256 hex per chunk index, recorded at completion. */
    chunkHashes: text("chunk_hashes", { mode: "json" }).$type<string[]>(),
    saveId: integer("save_id").references(() => saves.id, { onDelete: "set null" }),
    completedAt: integer("completed_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("upload_tasks_upload_idx").on(t.uploadId), index("upload_tasks_open_idx").on(t.completedAt, t.createdAt)],
);

export const uploadChunks = sqliteTable(
  "upload_task_chunks",
  {
    taskId: integer("task_id")
      .notNull()
      .references(() => uploads.id, { onDelete: "cascade" }),
    chunkIndex: integer("chunk_index").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    body: bytes("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.chunkIndex] })],
);

export const saves = sqliteTable(
  "saves",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sha256: text("sha256").notNull(),
    playerId: text("player_id").notNull(),
    source: text("source", { enum: ["upload", "report"] }).notNull(),
    /** The encrypted save; null once the retention rule cleared it (the archive keeps save.bin). */
    encrypted: bytes("encrypted"),
    size: integer("size").notNull(),
    receivedAt: integer("received_at").notNull(),
    /** The save's outputs model (maps/save-outputs.ts), committed by the generate stage; null until then. */
    outputs: text("outputs", { mode: "json" }).$type<SaveOutputs>(),
    /** sha256 of the save's drops (site, resource, position, quantity; not their harvest status), set by generate. */
    dropsFingerprint: text("drops_fingerprint"),
    /** The player's last pushed save, when the notify stage found this one has the same drops and did not push it. */
    repeatOf: integer("repeat_of"),
    /** The region whose game host the save came from (its capture URL), or null when it named none. */
    region: text("region").$type<Region>(),
    /** What the game answered (src/capture/data-types.ts): the MySekai save, or a birthday party's delivery. */
    dataType: text("data_type", { enum: DATA_TYPES }).notNull().default("mysekai"),
    /** A refresh without harvest maps (set by generate): never the data API's latest, never pushed. */
    partial: integer("partial", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("saves_sha256_unique").on(t.sha256), index("saves_player_idx").on(t.playerId, t.receivedAt)],
);

/** A report as received: its candidate bodies wait in report_candidates until the pipeline evaluates them. */
export const reports = sqliteTable(
  "reports",
  {
  id: integer("id").primaryKey({ autoIncrement: true }),
  receivedAt: integer("received_at").notNull(),
  shape: text("shape").notNull(),
  entryCount: integer("entry_count").notNull(),
  candidateCount: integer("candidate_count").notNull(),
  emptyBodies: integer("empty_bodies").notNull(),
  meta: text("meta", { mode: "json" }).$type<Record<string, string>>().notNull(),
  outcome: text("outcome", { enum: ["save", "duplicate", "no_save", "empty_bodies", "partial_save"] }),
  saveId: integer("save_id").references(() => saves.id, { onDelete: "set null" }),
  processedAt: integer("processed_at"),
  },
  (t) => [index("reports_received_idx").on(t.receivedAt)],
);

export const reportCandidates = sqliteTable(
  "report_candidates",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    entryIndex: integer("entry_index").notNull(),
    part: text("part", { enum: ["response", "request"] }).notNull(),
    url: text("url"),
    body: bytes("body").notNull(),
    /** true: the body text could not be decoded (bad base64) and is kept as its UTF-8 text, never dropped. */
    undecodable: integer("undecodable", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.seq] })],
);

import { JOB_STAGES, JOB_STATES } from "../store/model/jobs.ts";
export { JOB_STAGES, JOB_STATES, type JobStage, type JobState } from "../store/model/jobs.ts";

/**
 * The pipeline's queue. A job belongs to a save (generate → notify) or to a report
 * (evaluate: find the save among the candidates). `leaseId` fences a claim: only the holder may move it on.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    saveId: integer("save_id").references(() => saves.id, { onDelete: "cascade" }),
    reportId: integer("report_id").references(() => reports.id, { onDelete: "cascade" }),
    stage: text("stage", { enum: JOB_STAGES }).notNull(),
    state: text("state", { enum: JOB_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Deaths of the service while this job ran (db/jobs/queue.ts reclaimOrphans): from the first, its tasks run in a process of their own. */
    processDeaths: integer("process_deaths").notNull().default(0),
    /** Deaths in a row of those tasks' own processes: a save that crashes what runs it; parked at POISON_CRASHES. */
    crashes: integer("crashes").notNull().default(0),
    runAt: integer("run_at").notNull(),
    leaseId: text("lease_id"),
    leaseExpiresAt: integer("lease_expires_at"),
    notify: integer("notify", { mode: "boolean" }).notNull().default(true),
    /** Set when the save changed while a stage ran (a real player id arrived): the job goes back to generate. */
    rerun: integer("rerun", { mode: "boolean" }).notNull().default(false),
    /** Owner reprocess --notify: push even a save whose drops repeat the player's last push. */
    forcePush: integer("force_push", { mode: "boolean" }).notNull().default(false),
    /**
     * The save's bytes cannot be a save under any configured key (bad PKCS#7 padding in the last block): the
     * job waits behind every other, and a failed one expires with the retention rule. Judged again at start-up.
     */
    implausible: integer("implausible", { mode: "boolean" }).notNull().default(false),
    /** A bot subscribes to the save's player (msr_subscriptions) as the job was queued: claimed before other fresh jobs. */
    subscribed: integer("subscribed", { mode: "boolean" }).notNull().default(false),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("jobs_save_unique").on(t.saveId),
    uniqueIndex("jobs_report_unique").on(t.reportId),
    index("jobs_claim_idx").on(t.state, t.runAt),
    index("jobs_state_updated_idx").on(t.state, t.updatedAt),
  ],
);

export const archives = sqliteTable(
  "archives",
  {
    saveId: integer("save_id")
      .primaryKey()
      .references(() => saves.id, { onDelete: "cascade" }),
    playerId: text("player_id").notNull(),
    /** Relative to the archive root (DATA_DIR/archive, or <prefix>/archive in a bucket), e.g. by-id/123/20261123_061500 */
    relPath: text("rel_path").notNull(),
    /** Unguessable id that names the archive in /maps/<token>/<file>.png */
    token: text("token").notNull(),
    files: text("files", { mode: "json" }).$type<string[]>().notNull(),
    /** What the player's history shows of this refresh (rare finds, new songs); null for archives made before it. */
    digest: text("digest", { mode: "json" }).$type<RefreshDigest>(),
    createdAt: integer("created_at").notNull(),
  },
  // A player's maps, newest first: /p/<token>, /players/<id> and the status page read them by player.
  (t) => [uniqueIndex("archives_token_unique").on(t.token), uniqueIndex("archives_path_unique").on(t.relPath), index("archives_player_idx").on(t.playerId, t.createdAt)],
);

/**
 * Which save holds a stamp folder in a bucket (by-id/<player>/<stamp>), claimed before any of its objects is
 * written: a bucket has no atomic create, so two saves of a player drawn in the same second by two processes
 * would otherwise share one folder. The first claim wins; the other save takes <stamp>_<its id>.
 */
export const archiveFolders = sqliteTable(
  "archive_folders",
  {
    relPath: text("rel_path").primaryKey(),
    saveId: integer("save_id")
      .notNull()
      .references(() => saves.id, { onDelete: "cascade" }),
  },
  (t) => [index("archive_folders_save_idx").on(t.saveId)],
);

import { DELIVERY_STATES } from "../store/model/deliveries.ts";
export { DELIVERY_STATES, type DeliveryState } from "../store/model/deliveries.ts";

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    saveId: integer("save_id")
      .notNull()
      .references(() => saves.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    /** "default" or a Bark alias: never a secret. */
    target: text("target").notNull(),
    state: text("state", { enum: DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Requests of this delivery already answered (Bark pushes one per map): a retry starts after them. */
    partsSent: integer("parts_sent").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    sentAt: integer("sent_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("deliveries_unique").on(t.saveId, t.channel, t.target)],
);

export * from "./schema-owner.ts";
export * from "./schema-watch.ts";
