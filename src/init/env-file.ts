/**
 * What the wizard writes, and how: `.env` (mode 0600, each line it set under a comment in the owner's language, then a
 * pointer to .env.example for the rest) and Bark's `config/bark_map.json`. Everything is written to a temporary file
 * and renamed over the target at the very end, so an interrupted wizard leaves no half-written file.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { writeFileAtomically } from "../atomic-file.ts";
import { dirname, join } from "node:path";
import type { InitMessages } from "../i18n/owner/index.ts";
import { parseRoutingFiles } from "../notify/routing.ts";

/** A value .env cannot hold unchanged: its message says which characters. */
export class NotWritable extends Error {}

/** A value Bun's .env reader gives back unchanged: bare, or in single quotes with `$` escaped (it expands `$NAME` even there). */
export function envValue(value: string): string {
  if (/^[A-Za-z0-9_.:/@+=,?&%~-]*$/.test(value)) return value;
  if (!/^[\x21-\x7e]+$/.test(value) || value.includes("'") || value.includes("\\")) {
    throw new NotWritable("quotes, backslashes, spaces or characters outside ASCII");
  }
  return `'${value.replaceAll("$", "\\$")}'`;
}

export type Settings = Record<string, string>;

export function renderEnv(settings: Settings, m: InitMessages): string {
  const comments: Record<string, string | undefined> = m.comments;
  const lines = [`# ${m.header}`, ""];
  for (const [name, value] of Object.entries(settings)) {
    lines.push(`# ${comments[name] ?? name}`, `${name}=${envValue(value)}`, "");
  }
  return lines.join("\n");
}

/** `dir/.env`, the previous one kept as `.env.bak` (the caller asked first). */
export function writeEnvFile(dir: string, text: string): string {
  const path = join(dir, ".env");
  if (existsSync(path)) copyFileSync(path, join(dir, ".env.bak"));
  writeFileAtomically(path, text, 0o600);
  return path;
}

/** Adds (or replaces) one alias in `config/bark_map.json`, keeping the others; creates `config/`. */
export function writeBarkKey(dir: string, alias: string, deviceKey: string): string {
  const path = join(dir, "config", "bark_map.json");
  let map: Record<string, unknown> = {};
  if (existsSync(path)) {
    // The service's own reading of it: a file it would refuse is left for the owner to mend, not overwritten.
    const text = readFileSync(path, "utf8");
    parseRoutingFiles(null, text, { pushMap: "push_map.json", barkMap: path });
    map = JSON.parse(text) as Record<string, unknown>;
  }
  map[alias] = deviceKey;
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomically(path, `${JSON.stringify(map, null, 2)}\n`, 0o600);
  return path;
}
