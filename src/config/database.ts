/**
 * Which database: the SQLite file at DATABASE_PATH (default), or a hub's PostgreSQL at
 * DATABASE_URL=postgres://… (or postgresql://…). The URL carries credentials: no error echoes it, and a log line
 * or a page shows describeDatabase's host and database only.
 */
import { ConfigError, text, type Env } from "./parse.ts";

export type DatabaseLocation =
  | { kind: "sqlite"; path: string }
  /** `url` is the whole DATABASE_URL, credentials included: for the client only. */
  | { kind: "postgres"; url: string; host: string; database: string; password: string | null };

export function databaseConfig(env: Env, sqlitePath: string): DatabaseLocation {
  const raw = text(env, "DATABASE_URL");
  if (raw === null) return { kind: "sqlite", path: sqlitePath };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== "postgres" && scheme !== "postgresql") {
    throw new ConfigError((m) => m.databaseScheme);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError((m) => m.notUrl("DATABASE_URL", null));
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (url.hostname === "" || database === "" || database.includes("/")) {
    throw new ConfigError((m) => m.databaseParts);
  }
  const password = url.password === "" ? url.searchParams.get("password") : decodeURIComponent(url.password);
  return { kind: "postgres", url: raw, host: url.port === "" ? url.hostname : `${url.hostname}:${url.port}`, database, password: password || null };
}

/** The database's place for a log line or a page: never its credentials. */
export function describeDatabase(location: DatabaseLocation): string {
  return location.kind === "sqlite" ? location.path : `postgres://${location.host}/${location.database}`;
}

/** What redaction must hide: the whole URL and its password, as written and decoded. */
export function databaseSecrets(location: DatabaseLocation): string[] {
  if (location.kind === "sqlite") return [];
  const raw = /^[^:]+:\/\/[^:@/]*:([^@/]*)@/.exec(location.url)?.[1];
  return [location.url, location.password, raw].filter((secret): secret is string => typeof secret === "string" && secret.length > 0);
}
