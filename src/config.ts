/** Every environment variable the service reads, parsed and validated in one place. */
import { join, resolve } from "node:path";
import type { BarkConfig } from "./notify/bark.ts";
import type { DiscordConfig } from "./notify/discord.ts";
import type { OneBotConfig } from "./notify/onebot.ts";
import type { TelegramConfig } from "./notify/telegram.ts";
import type { WebhookConfig } from "./notify/webhook.ts";
import { DEFAULT_REPORT_PATH } from "./report-path.ts";
import { KeyConfigError, parseKeyPairs, type KeyPair } from "./save/keys.ts";

export const MIB = 1024 * 1024;
export const UPLOAD_PATHS = ["/uploadSaveData", "/uploadMySekai"] as const;

export type MapLocale = "zh" | "ja" | "en";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databasePath: string;
  configDir: string;
  uploadTtlMs: number;
  uploads: {
    /** Open (incomplete) upload tasks at once. */
    maxOpen: number;
    /** Bytes held by open upload tasks. */
    maxOpenBytes: number;
    /** When set, uploads must carry it in X-Upload-Token. */
    token: string | null;
  };
  report: {
    enabled: boolean;
    path: string;
    maxEncodedBytes: number;
    maxDecodedBytes: number;
    token: string | null;
    /** HAR entries per report; more is a 413. */
    maxEntries: number;
    /** Candidate bodies (possible saves) per report; more is a 413. */
    maxCandidates: number;
  };
  /** Decryption key pairs in the order they are tried; empty = saves wait for keys. */
  keys: KeyPair[];
  /** The raw AES_* texts, kept only to redact them. */
  keyTexts: string[];
  pipeline: {
    concurrency: number;
    pollMs: number;
    leaseMs: number;
    shutdownGraceMs: number;
    /** A worker task (decrypt and draw one save) running longer is killed; the job gets one more try, behind the queue. */
    taskTimeoutMs: number;
    /** Backoff before attempt n+1, in ms; its length is the number of retries. */
    backoffMs: number[];
  };
  maps: { locale: MapLocale; showHarvested: boolean; assetsDir: string | null; timeZone: string };
  /** Bytes that in-flight upload and report requests may hold at once, and how long one waits for room. */
  budget: { decodeBytes: number; waitMs: number };
  /** How long finished records are kept; the free space on DATA_DIR below which new bodies get 507. */
  storage: { retentionMs: number; minFreeDiskBytes: number };
  publicBaseUrl: string | null;
  notify: NotifyConfig;
}

/** Every channel's settings, defaults applied; null = not configured (Bark: by the keys in bark_map.json). */
export interface NotifyConfig {
  /** Route of players not in push_map.json. */
  defaultRoute: string;
  /** Base of image URLs (`<base>/archive/<relPath>/<file>`) when PUBLIC_BASE_URL is not set. */
  imageBase: string | null;
  telegram: TelegramConfig | null;
  bark: BarkConfig;
  discord: DiscordConfig | null;
  onebot: OneBotConfig | null;
  webhook: WebhookConfig | null;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function number(env: Env, name: string, fallback: number, min: number, max: number, integer = true): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  const kind = integer ? "an integer" : "a number";
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new ConfigError(`${name} must be ${kind} from ${min} to ${max}, got "${raw.slice(0, 40)}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined || raw === null) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1/true or 0/false, got "${raw.slice(0, 40)}"`);
}

function httpUrl(env: Env, name: string, secret = false): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(secret ? `${name} is not a valid URL` : `${name} is not a valid URL: "${raw.slice(0, 80)}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name} must be an http(s) URL`);
  return raw.replace(/\/+$/, "");
}

function reportPath(env: Env): string {
  let path = text(env, "REPORT_PATH") ?? DEFAULT_REPORT_PATH;
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.length > 1) path = path.replace(/\/+$/, "");
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path === "/") {
    throw new ConfigError("REPORT_PATH must be a URL path of letters, digits and . _ ~ - /");
  }
  if ((UPLOAD_PATHS as readonly string[]).includes(path)) {
    throw new ConfigError(`REPORT_PATH must not be ${path}: that is the upload endpoint`);
  }
  if (path.startsWith("/maps/") || path === "/healthz") {
    throw new ConfigError(`REPORT_PATH must not be ${path}: the service serves that path itself`);
  }
  return path;
}

function locale(env: Env): MapLocale {
  const raw = (text(env, "MAP_LOCALE") ?? "zh").toLowerCase();
  if (raw === "zh" || raw === "ja" || raw === "en") return raw;
  throw new ConfigError(`MAP_LOCALE must be zh, ja or en, got "${raw.slice(0, 20)}"`);
}

function timeZone(env: Env): string {
  const zone = text(env, "MAP_TIMEZONE") ?? "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new ConfigError(`MAP_TIMEZONE must be an IANA time zone such as Asia/Tokyo, got "${zone.slice(0, 40)}"`);
  }
  return zone;
}

function notifyConfig(env: Env): NotifyConfig {
  const botToken = text(env, "TELEGRAM_BOT_TOKEN");
  const chatId = text(env, "TELEGRAM_CHAT_ID");
  if ((botToken === null) !== (chatId === null)) {
    throw new ConfigError(`${botToken ? "TELEGRAM_CHAT_ID" : "TELEGRAM_BOT_TOKEN"} must be set together with the other`);
  }
  const onebotUrl = httpUrl(env, "ONEBOT_URL", true);
  const onebotTarget = text(env, "ONEBOT_TARGET");
  if (onebotUrl && !onebotTarget) throw new ConfigError("ONEBOT_TARGET must be set (group:<id> or private:<id>) with ONEBOT_URL");
  if (onebotTarget && !/^(group|private):\d{1,15}$/.test(onebotTarget)) {
    throw new ConfigError("ONEBOT_TARGET must be group:<id> or private:<id>");
  }
  const discordUrl = httpUrl(env, "DISCORD_WEBHOOK_URL", true);
  const webhookUrl = httpUrl(env, "WEBHOOK_URL", true);
  const imageBase = httpUrl(env, "BARK_IMAGE_BASE") ?? httpUrl(env, "FALLBACK_IMAGE_BASE");
  const timeoutMs = number(env, "NOTIFY_TIMEOUT_MS", 30_000, 100, 600_000);
  return {
    defaultRoute: text(env, "NOTIFY_DEFAULT") ?? "telegram",
    imageBase,
    telegram:
      botToken && chatId
        ? { apiBase: httpUrl(env, "TELEGRAM_API_BASE") ?? "https://api.telegram.org", botToken, chatId, timeoutMs }
        : null,
    bark: {
      server: httpUrl(env, "BARK_SERVER") ?? "https://api.day.app",
      icon: text(env, "BARK_ICON"),
      group: text(env, "BARK_GROUP"),
      timeoutMs,
    },
    discord: discordUrl ? { webhookUrl: discordUrl, timeoutMs } : null,
    onebot: onebotUrl && onebotTarget ? { url: onebotUrl, token: text(env, "ONEBOT_TOKEN"), target: onebotTarget, timeoutMs } : null,
    webhook: webhookUrl ? { url: webhookUrl, secret: text(env, "WEBHOOK_SECRET"), timeoutMs } : null,
  };
}

/** Parses the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(text(env, "DATA_DIR") ?? text(env, "MYSK_DATA_DIR") ?? "./data");
  const reportMaxMb = number(env, "REPORT_MAX_SIZE", 1, 0.001, 64, false);
  const hostText = text(env, "HOST") ?? "0.0.0.0";
  return {
    host: hostText,
    port: number(env, "PORT", 9478, 0, 65535),
    dataDir,
    databasePath: resolve(text(env, "DATABASE_PATH") ?? join(dataDir, "ingest.sqlite")),
    configDir: resolve(text(env, "CONFIG_DIR") ?? text(env, "MYSK_CONFIG_DIR") ?? "./config"),
    uploadTtlMs: Math.round(number(env, "UPLOAD_TTL_MINUTES", 30, 0.001, 7 * 24 * 60, false) * 60_000),
    uploads: {
      maxOpen: number(env, "UPLOAD_MAX_OPEN", 200, 1, 100_000),
      // At least 1 MB: one whole upload (1 MiB) always fits once the others expire.
      maxOpenBytes: Math.round(number(env, "UPLOAD_MAX_OPEN_MB", 64, 1, 65_536, false) * MIB),
      token: text(env, "UPLOAD_TOKEN"),
    },
    report: {
      enabled: flag(env, "REPORT_ENABLED", true),
      path: reportPath(env),
      maxEncodedBytes: Math.round(reportMaxMb * MIB),
      maxDecodedBytes: Math.round(number(env, "REPORT_MAX_DECOMPRESSED_SIZE", Math.min(64, reportMaxMb * 4), 0.001, 64, false) * MIB),
      token: text(env, "REPORT_TOKEN"),
      maxEntries: number(env, "REPORT_MAX_ENTRIES", 1000, 1, 100_000),
      maxCandidates: number(env, "REPORT_MAX_CANDIDATES", 64, 1, 1000),
    },
    keys: keyPairs(env),
    keyTexts: ["AES_KEY", "AES_IV", "AES_KEYS"]
      .flatMap((name) => [env[name], ...(env[name]?.split(/[,:]/) ?? [])])
      .map((part) => part?.trim() ?? "")
      .filter((part) => part !== "" && part !== "hex" && part !== "base64"),
    pipeline: {
      concurrency: number(env, "PIPELINE_CONCURRENCY", 2, 1, 16),
      pollMs: number(env, "PIPELINE_POLL_MS", 1000, 10, 600_000),
      leaseMs: number(env, "JOB_LEASE_MS", 120_000, 1000, 3_600_000),
      shutdownGraceMs: number(env, "SHUTDOWN_GRACE_MS", 15_000, 0, 600_000),
      taskTimeoutMs: number(env, "TASK_TIMEOUT_MS", 20_000, 1000, 3_600_000),
      backoffMs: backoff(env),
    },
    maps: {
      locale: locale(env),
      showHarvested: flag(env, "MAP_SHOW_HARVESTED", false),
      assetsDir: text(env, "ASSETS_DIR") ? resolve(text(env, "ASSETS_DIR")!) : null,
      timeZone: timeZone(env),
    },
    budget: {
      decodeBytes: Math.round(number(env, "DECODE_BUDGET_MB", 8, 0.01, 65_536, false) * MIB),
      waitMs: number(env, "DECODE_WAIT_MS", 2000, 0, 60_000),
    },
    storage: {
      retentionMs: Math.round(number(env, "RETENTION_DAYS", 30, 0.001, 36_500, false) * 24 * 60 * 60 * 1000),
      minFreeDiskBytes: Math.round(number(env, "MIN_FREE_DISK_MB", 256, 0, 1e9, false) * MIB),
    },
    publicBaseUrl: httpUrl(env, "PUBLIC_BASE_URL"),
    notify: notifyConfig(env),
  };
}

function keyPairs(env: Env): KeyPair[] {
  try {
    return parseKeyPairs({ AES_KEY: env.AES_KEY, AES_IV: env.AES_IV, AES_KEYS: env.AES_KEYS });
  } catch (error) {
    if (error instanceof KeyConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

function backoff(env: Env): number[] {
  const raw = text(env, "JOB_BACKOFF_MS");
  if (raw === null) return [2_000, 10_000, 60_000, 300_000, 1_800_000];
  const steps = raw.split(",").map((part) => Number(part.trim()));
  if (steps.length === 0 || steps.some((step) => !Number.isInteger(step) || step < 0)) {
    throw new ConfigError("JOB_BACKOFF_MS must be a comma-separated list of whole milliseconds, e.g. 2000,10000,60000");
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
    report.path === DEFAULT_REPORT_PATH ? null : report.path,
    notify.telegram?.botToken,
    notify.discord?.webhookUrl,
    notify.onebot?.url,
    notify.onebot?.token,
    notify.webhook?.url,
    notify.webhook?.secret,
  ].filter((secret): secret is string => typeof secret === "string" && secret.length > 0);
}
