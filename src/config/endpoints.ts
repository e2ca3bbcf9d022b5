/** The uploads and report groups: who may send, where, and how much (the contract's fixed limits are in contract.ts). */
import { DEFAULT_REPORT_MAX_MB, DEFAULT_REPORT_PATH, MIB, UPLOAD_PATHS } from "../contract.ts";
import { ConfigError, flag, headerToken, number, text, type Env } from "./parse.ts";

export interface UploadsConfig {
  /** Open (incomplete) upload tasks at once. */
  maxOpen: number;
  /** Bytes held by open upload tasks. */
  maxOpenBytes: number;
  /** When set, uploads must carry it in X-Upload-Token. */
  token: string | null;
}

export interface ReportConfig {
  enabled: boolean;
  path: string;
  maxEncodedBytes: number;
  maxDecodedBytes: number;
  token: string | null;
  /** HAR entries per report; more is a 413. */
  maxEntries: number;
  /** Candidate bodies (possible saves) per report; more is a 413. */
  maxCandidates: number;
}

export function uploadsConfig(env: Env): UploadsConfig {
  return {
    maxOpen: number(env, "UPLOAD_MAX_OPEN", 200, 1, 100_000),
    // At least 1 MB: one whole upload (1 MiB) always fits once the others expire.
    maxOpenBytes: Math.round(number(env, "UPLOAD_MAX_OPEN_MB", 64, 1, 65_536, false) * MIB),
    token: headerToken(env, "UPLOAD_TOKEN"),
  };
}

function reportPath(env: Env): string {
  let path = text(env, "REPORT_PATH") ?? DEFAULT_REPORT_PATH;
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.length > 1) path = path.replace(/\/+$/, "");
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path === "/") {
    throw new ConfigError((m) => m.reportPath);
  }
  if ((UPLOAD_PATHS as readonly string[]).includes(path)) {
    throw new ConfigError((m) => m.reportPathUpload(path));
  }
  if (SERVED_PATHS.includes(path)) throw new ConfigError((m) => m.reportPathServed(path));
  // Names the prefix, not the path: a path under it may still be the owner's secret.
  const taken = SERVED_PREFIXES.find((prefix) => path.startsWith(prefix));
  if (taken) throw new ConfigError((m) => m.reportPathUnder(taken));
  return path;
}

/** Paths the service's own routes answer (src/http), which a report path would shadow or be shadowed by. */
const SERVED_PATHS = ["/healthz", "/metrics", "/login", "/logout", "/setup", "/status", "/maps", "/p", "/players", "/api", "/public"];
const SERVED_PREFIXES = ["/maps/", "/status/", "/setup/", "/p/", "/players/", "/api/", "/public/"];

export function reportConfig(env: Env): ReportConfig {
  const reportMaxMb = number(env, "REPORT_MAX_SIZE", DEFAULT_REPORT_MAX_MB, 0.001, 64, false);
  return {
    enabled: flag(env, "REPORT_ENABLED", true),
    path: reportPath(env),
    maxEncodedBytes: Math.round(reportMaxMb * MIB),
    maxDecodedBytes: Math.round(number(env, "REPORT_MAX_DECOMPRESSED_SIZE", Math.min(64, reportMaxMb * 4), 0.001, 64, false) * MIB),
    token: text(env, "REPORT_TOKEN"),
    maxEntries: number(env, "REPORT_MAX_ENTRIES", 1000, 1, 100_000),
    maxCandidates: number(env, "REPORT_MAX_CANDIDATES", 64, 1, 1000),
  };
}
