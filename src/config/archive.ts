/**
 * Where archives go: DATA_DIR/archive (default), or ARCHIVE_URL=s3://<bucket>/<prefix> with the S3 client's
 * usual settings (S3_* first, else AWS_*). The secret and session token are never echoed in an error.
 */
import { join } from "node:path";
import type { ArchiveLocation } from "../archive/store.ts";
import { ConfigError, httpUrl, text, type Env } from "./parse.ts";

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^[A-Za-z0-9!_.*'()\/-]{0,512}$/;

export function archiveConfig(env: Env, dataDir: string): ArchiveLocation {
  const raw = text(env, "ARCHIVE_URL");
  if (raw === null) return { kind: "disk", root: join(dataDir, "archive") };
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
  // Never echoed: a URL pasted by mistake may carry credentials (https://key:secret@…).
  if (!match) throw new ConfigError((m) => m.archiveUrl);
  const bucket = match[1]!;
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (!BUCKET.test(bucket)) throw new ConfigError((m) => m.archiveBucket);
  if (!PREFIX.test(prefix) || prefix.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new ConfigError((m) => m.archivePrefix);
  }
  const either = (name: string) => text(env, `S3_${name}`) ?? text(env, `AWS_${name}`) ?? undefined;
  const endpoint = httpUrl(env, "S3_ENDPOINT", true) ?? httpUrl(env, "AWS_ENDPOINT", true) ?? undefined;
  const location: ArchiveLocation = { kind: "s3", bucket, prefix };
  const settings = {
    endpoint,
    region: either("REGION"),
    accessKeyId: either("ACCESS_KEY_ID"),
    secretAccessKey: either("SECRET_ACCESS_KEY"),
    sessionToken: either("SESSION_TOKEN"),
  };
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) Object.assign(location, { [name]: value });
  return location;
}

/** The archive's place for a log line or a page: never its credentials. */
export function describeArchive(location: ArchiveLocation): string {
  if (location.kind === "disk") return location.root;
  return `s3://${location.bucket}/${location.prefix}${location.endpoint ? ` at ${new URL(location.endpoint).host}` : ""}`;
}
