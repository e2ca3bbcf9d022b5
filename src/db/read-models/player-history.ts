/**
 * A player's history: their archived refreshes of the last HISTORY_DAYS days, newest first, each with what it
 * found (the archive's digest) and the maps its archive token serves. Read by the saves_player_idx index; run by
 * pages.ts over either store.
 */
import type { DataType } from "../../capture/data-types.ts";
import type { Region } from "../../capture/regions.ts";
import { refreshDigest, type RefreshDigest } from "../../maps/refresh-digest.ts";
import { storedOutputs, type SaveOutputs } from "../../maps/save-outputs.ts";
import type { PastRefresh } from "../../store/model/pages.ts";
import { read } from "../dialect/statements.ts";

/** One row of the history query. */
export interface HistoryRow {
  saveId: number;
  receivedAt: number;
  region: Region | null;
  token: string;
  dataType: DataType;
  partial: boolean;
  files: string[];
  digest: RefreshDigest | null;
  /** Only for archives without a digest (made before it was kept). */
  outputs: SaveOutputs | null;
}

/** Exported for the test that holds it to the index. */
export const HISTORY_QUERY = read<HistoryRow>(
  `SELECT s.id AS "saveId", s.received_at AS "receivedAt", s.region, s.data_type AS "dataType", s.partial, a.token, a.files, a.digest,
    CASE WHEN a.digest IS NULL THEN s.outputs END AS "outputs"
  FROM saves s JOIN archives a ON a.save_id = s.id
  WHERE s.player_id = $1 AND s.received_at >= $2
  ORDER BY s.received_at DESC, s.id DESC LIMIT $3`,
  { receivedAt: "int", partial: "bool", files: "json", digest: "json", outputs: "json" },
);

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
  return { saveId: row.saveId, receivedAt: row.receivedAt, region: row.region, token: row.token, maps: mapLinks(row.files, digest), digest, party: row.dataType !== "mysekai_birthday_party" ? null : row.partial ? "record" : "refresh" };
}
