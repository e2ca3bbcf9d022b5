/**
 * Every environment variable the service reads, parsed and validated in one place: this file assembles
 * the groups (parse.ts reads one variable; endpoints.ts, maps.ts and notify.ts build their groups).
 */
import { join, resolve } from "node:path";
import { isRegion, REGIONS, type Region } from "../capture/regions.ts";
import { DEFAULT_REPORT_PATH, MIB } from "../contract.ts";
import { KeyConfigError, parseKeyPairs, type KeyPair } from "../save/keys.ts";
import type { ArchiveLocation } from "../archive/store.ts";
import { adminConfig, type AdminConfig } from "./admin.ts";
import { archiveConfig } from "./archive.ts";
import { databaseConfig, databaseSecrets, type DatabaseLocation } from "./database.ts";
import { reportConfig, uploadsConfig, type ReportConfig, type UploadsConfig } from "./endpoints.ts";
import { localeSetting, mapsConfig, type MapsConfig } from "./maps.ts";
import { ownerLocaleSetting } from "./owner-locale.ts";
import type { Locale } from "../i18n/locales.ts";
import { notifyConfig, notifyTimeoutMs, type NotifyConfig } from "./notify.ts";
import { baseUrl, ConfigError, flag, number, text, type Env } from "./parse.ts";

export { ConfigError } from "./parse.ts";
export type { MapLocale } from "./maps.ts";
export type { NotifyConfig } from "./notify.ts";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databasePath: string;
  /** The SQLite file at databasePath, or a hub's PostgreSQL (DATABASE_URL): never logged whole (describeDatabase). */
  database: DatabaseLocation;
  configDir: string;
  /** DATA_DIR/archive, or a bucket (ARCHIVE_URL=s3://…) with its credentials: never logged whole (describeArchive). */
  archive: ArchiveLocation;
  uploadTtlMs: number;
  uploads: UploadsConfig;
  report: ReportConfig;
  /** Decryption key pairs in the order they are tried; empty = saves wait for keys. */
  keys: KeyPair[];
  /** The raw AES_* texts, kept only to redact them. */
  keyTexts: string[];
  pipeline: {
    /** Render workers (saves drawn at once, at most cores − 1): src/pipeline/concurrency.ts. */
    concurrency: number;
    /** Job slots (saves in flight), null for the store's default: src/pipeline/concurrency.ts. */
    inFlight: number | null;
    pollMs: number;
    leaseMs: number;
    shutdownGraceMs: number;
    /** A worker task (decrypt and draw one save) running longer is killed; the job gets one more try, behind the queue. */
    taskTimeoutMs: number;
    /** Backoff before attempt n+1, in ms; its length is the number of retries. */
    backoffMs: number[];
  };
  maps: MapsConfig;
  /** PAGE_LOCALE: every page in this language (no switch); null: each reader's choice, else Accept-Language. */
  pages: { locale: Locale | null };
  /** The start log's and the CLI's language: OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG (src/config/owner-locale.ts). */
  ownerLocale: Locale;
  /**
   * Bytes that in-flight upload and report requests may hold at once (counted as they arrive or are decoded),
   * how long one waits for room, and the share of it (and of the open-upload caps) one peer address may hold.
   */
  budget: { decodeBytes: number; waitMs: number; peerShare: number; peerMaxBodies: number };
  /** A request body must arrive within `deadlineMs`, and bring `minBytesPerSecond` in every `windowMs` (or end). */
  bodyPace: { deadlineMs: number; windowMs: number; minBytesPerSecond: number };
  /** Behind a reverse proxy on this machine: the peer is the last X-Forwarded-For address it adds. */
  trustProxy: boolean;
  /** The data API: the region of saves that came from no known game host, and reads per minute per token and per peer. */
  api: { defaultRegion: Region; perMinute: number };
  /** How long finished records are kept; the free space on DATA_DIR below which new bodies get 507; the WAL's cut-back size. */
  storage: { retentionMs: number; minFreeDiskBytes: number; walLimitBytes: number; storeTimeoutMs: number };
  publicBaseUrl: string | null;
  notify: NotifyConfig;
  admin: AdminConfig;
}

/** Parses the environment; throws ConfigError naming the first bad variable. */
/** The port the service listens on unless PORT says otherwise (the wizard offers addresses on it). */
export const DEFAULT_PORT = 9478;

export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(text(env, "DATA_DIR") ?? text(env, "MYSK_DATA_DIR") ?? "./data");
  const hostText = text(env, "HOST") ?? "0.0.0.0";
  const databasePath = resolve(text(env, "DATABASE_PATH") ?? join(dataDir, "ingest.sqlite"));
  const database = databaseConfig(env, databasePath);
  const config: Config = {
    host: hostText,
    port: number(env, "PORT", DEFAULT_PORT, 0, 65535),
    dataDir,
    databasePath,
    database,
    configDir: resolve(text(env, "CONFIG_DIR") ?? text(env, "MYSK_CONFIG_DIR") ?? "./config"),
    archive: archiveConfig(env, dataDir),
    uploadTtlMs: Math.round(number(env, "UPLOAD_TTL_MINUTES", 30, 0.001, 7 * 24 * 60, false) * 60_000),
    uploads: uploadsConfig(env),
    report: reportConfig(env),
    keys: keyPairs(env),
    keyTexts: ["AES_KEY", "AES_IV", "AES_KEYS"]
      .flatMap((name) => [env[name], ...(env[name]?.split(/[,:]/) ?? [])])
      .map((part) => part?.trim() ?? "")
      .filter((part) => part !== "" && part !== "hex" && part !== "base64"),
    pipeline: {
      concurrency: number(env, "PIPELINE_CONCURRENCY", 2, 1, 16),
      inFlight: text(env, "PIPELINE_IN_FLIGHT") === null ? null : number(env, "PIPELINE_IN_FLIGHT", 2, 1, 64),
      pollMs: number(env, "PIPELINE_POLL_MS", 1000, 10, 600_000),
      leaseMs: number(env, "JOB_LEASE_MS", 120_000, 1000, 3_600_000),
      shutdownGraceMs: number(env, "SHUTDOWN_GRACE_MS", 15_000, 0, 600_000),
      taskTimeoutMs: number(env, "TASK_TIMEOUT_MS", 20_000, 250, 3_600_000),
      backoffMs: backoff(env),
    },
    maps: mapsConfig(env),
    pages: { locale: localeSetting(env, "PAGE_LOCALE") },
    ownerLocale: ownerLocaleSetting(env),
    budget: {
      decodeBytes: Math.round(number(env, "DECODE_BUDGET_MB", 8, 0.01, 65_536, false) * MIB),
      waitMs: number(env, "DECODE_WAIT_MS", 2000, 0, 60_000),
      peerShare: number(env, "PEER_SHARE", 0.5, 0.01, 1, false),
      peerMaxBodies: number(env, "PEER_MAX_BODIES", 64, 1, 100_000),
    },
    bodyPace: {
      deadlineMs: Math.round(number(env, "BODY_DEADLINE_SECONDS", 120, 1, 3600, false) * 1000),
      windowMs: Math.round(number(env, "BODY_RATE_WINDOW_SECONDS", 10, 0.1, 3600, false) * 1000),
      minBytesPerSecond: number(env, "BODY_MIN_BYTES_PER_SECOND", 1024, 1, 1e9),
    },
    trustProxy: flag(env, "TRUST_PROXY", false),
    api: { defaultRegion: defaultRegion(env), perMinute: number(env, "API_RATE_PER_MINUTE", 600, 1, 1_000_000) },
    storage: {
      retentionMs: Math.round(number(env, "RETENTION_DAYS", 30, 0.001, 36_500, false) * 24 * 60 * 60 * 1000),
      minFreeDiskBytes: Math.round(number(env, "MIN_FREE_DISK_MB", 256, 0, 1e9, false) * MIB),
      walLimitBytes: Math.round(number(env, "WAL_SIZE_LIMIT_MB", 16, 0.25, 65_536, false) * MIB),
      // A hub's PostgreSQL and bucket: a request's store call (and a connect) answers 503 past this.
      storeTimeoutMs: number(env, "STORE_TIMEOUT_MS", 4000, 100, 60_000),
    },
    publicBaseUrl: baseUrl(env, "PUBLIC_BASE_URL"),
    notify: notifyConfig(env),
    admin: adminConfig(env, database.kind === "postgres"),
  };
  // A send runs under the lease extended when it was claimed: one outliving that lease could be sent
  // again by the runner that reclaims the job.
  const timeoutMs = notifyTimeoutMs(env);
  if (timeoutMs >= config.pipeline.leaseMs) {
    throw new ConfigError((m) => m.below("NOTIFY_TIMEOUT_MS", timeoutMs, "JOB_LEASE_MS", config.pipeline.leaseMs));
  }
  if (config.notify.consumers.timeoutMs >= config.pipeline.leaseMs) {
    throw new ConfigError((m) => m.below("DATA_WEBHOOK_TIMEOUT_MS", config.notify.consumers.timeoutMs, "JOB_LEASE_MS", config.pipeline.leaseMs));
  }
  return config;
}

function defaultRegion(env: Env): Region {
  const region = (text(env, "DEFAULT_REGION") ?? "jp").toLowerCase();
  if (!isRegion(region)) throw new ConfigError((m) => m.oneOf("DEFAULT_REGION", REGIONS.join(", "), region.slice(0, 8)));
  return region;
}

function keyPairs(env: Env): KeyPair[] {
  try {
    return parseKeyPairs({ AES_KEY: env.AES_KEY, AES_IV: env.AES_IV, AES_KEYS: env.AES_KEYS });
  } catch (error) {
    if (error instanceof KeyConfigError) throw new ConfigError(error.problem);
    throw error;
  }
}

function backoff(env: Env): number[] {
  const raw = text(env, "JOB_BACKOFF_MS");
  if (raw === null) return [2_000, 10_000, 60_000, 300_000, 1_800_000];
  const steps = raw.split(",").map((part) => Number(part.trim()));
  if (steps.length === 0 || steps.some((step) => !Number.isInteger(step) || step < 0)) {
    throw new ConfigError((m) => m.backoff("JOB_BACKOFF_MS"));
  }
  return steps;
}

/** Every configured secret, for redaction of error text before it reaches a log or the database. */
export function secretsOf(config: Config): string[] {
  const { notify, report } = config;
  return [
    ...config.keyTexts,
    report.token,
    config.uploads.token,
    config.admin.token,
    config.admin.linkKey,
    report.path === DEFAULT_REPORT_PATH ? null : report.path,
    notify.telegram?.botToken,
    notify.discord?.webhookUrl,
    notify.onebot?.url,
    notify.onebot?.token,
    notify.webhook?.url,
    notify.webhook?.secret,
    config.archive.kind === "s3" ? config.archive.secretAccessKey : null,
    config.archive.kind === "s3" ? config.archive.sessionToken : null,
    ...databaseSecrets(config.database),
  ].filter((secret): secret is string => typeof secret === "string" && secret.length > 0);
}
