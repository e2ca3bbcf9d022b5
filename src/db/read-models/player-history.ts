/**
 * A player's history: their archived refreshes of the last HISTORY_DAYS days, newest first, each with what it
 * found (the archive's digest) and the maps its archive token serves. Read by the saves_player_idx index.
 */
import type { DataType } from "../../capture/data-types.ts";
import type { Region } from "../../capture/regions.ts";
import { refreshDigest, type RefreshDigest } from "../../maps/refresh-digest.ts";
import { storedOutputs, type SaveOutputs } from "../../maps/save-outputs.ts";
import type { Db } from "../open.ts";

export const HISTORY_DAYS = 30;
/** Two refreshes a day for HISTORY_DAYS with room to spare: a page never grows past this. */
export const HISTORY_ROWS = 120;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PastRefresh {
  saveId: number;
  receivedAt: number;
  /** The save's region: the zone its maps and push wrote its time in. */
  region: Region | null;
  /** Names the archive in /maps/<token>/<file>. */
  token: string;
  /** The archive's map files, the overview first, then the sites by id. */
  maps: { file: string; label: string }[];
  /** null: archived before digests were kept and its outputs model since cleared. */
  digest: RefreshDigest | null;
  /** A birthday party's delivery (its one site), not the player's MySekai save. */
  party: boolean;
}

/** One row of the history query, its JSON decoded (SQLite's text, PostgreSQL's jsonb). */
export interface HistoryRow {
  saveId: number;
  receivedAt: number;
  region: Region | null;
  token: string;
  dataType: DataType;
  files: string[];
  digest: RefreshDigest | null;
  /** Only for archives without a digest (made before it was kept). */
  outputs: SaveOutputs | null;
}

type SqliteRow = Omit<HistoryRow, "files" | "digest" | "outputs"> & { files: string; digest: string | null; outputs: string | null };

/** Exported for the test that holds it to the index. */
export const HISTORY_QUERY = `SELECT s.id AS saveId, s.received_at AS receivedAt, s.region, s.data_type AS dataType, a.token, a.files, a.digest,
    CASE WHEN a.digest IS NULL THEN s.outputs END AS outputs
  FROM saves s JOIN archives a ON a.save_id = s.id
  WHERE s.player_id = ?1 AND s.received_at >= ?2
  ORDER BY s.received_at DESC, s.id DESC LIMIT ?3`;

const SITE_MAP = /^site_(\d+)\.png$/;

function mapLinks(files: string[], digest: RefreshDigest | null): PastRefresh["maps"] {
  const sites = files
    .map((file) => ({ file, siteId: Number(SITE_MAP.exec(file)?.[1] ?? Number.NaN) }))
    .filter(({ siteId }) => Number.isInteger(siteId))
    .sort((a, b) => a.siteId - b.siteId)
    .map(({ file, siteId }) => ({ file, label: digest?.sites.find((site) => site.siteId === siteId)?.name ?? `Site ${siteId}` }));
  return [...(files.includes("overview.png") ? [{ file: "overview.png", label: "Overview" }] : []), ...sites];
}

function digestOf(row: HistoryRow): RefreshDigest | null {
  if (row.digest !== null) return row.digest;
  const outputs = row.outputs === null ? null : storedOutputs(row.outputs);
  return outputs === null ? null : refreshDigest(outputs);
}

/** What the page shows of one history row, the same from either store. */
export function pastRefresh(row: HistoryRow): PastRefresh {
  const digest = digestOf(row);
  return { saveId: row.saveId, receivedAt: row.receivedAt, region: row.region, token: row.token, maps: mapLinks(row.files, digest), digest, party: row.dataType === "mysekai_birthday_party" };
}

/** The oldest receivedAt the history shows at `now`. */
export const historySince = (now: number) => now - HISTORY_DAYS * DAY_MS;

export function playerHistory(db: Db, playerId: string, now = Date.now()): PastRefresh[] {
  const rows = db.$client.query(HISTORY_QUERY).all(playerId, historySince(now), HISTORY_ROWS) as SqliteRow[];
  return rows.map((row) =>
    pastRefresh({
      ...row,
      files: JSON.parse(row.files) as string[],
      digest: row.digest === null ? null : (JSON.parse(row.digest) as RefreshDigest),
      outputs: row.outputs === null ? null : (JSON.parse(row.outputs) as SaveOutputs),
    }),
  );
}
