/**
 * The data API's reads, written once for both stores over their statements (src/db/dialect/): a player's latest
 * archived save of a data type in a region (a save without a game host counts for the default region), by the
 * saves_player_idx index, players' latest upload times, a save's encrypted bytes and stored JSON. A partial
 * refresh (no harvest maps) is never the latest: a bot reading it would find no maps where the full save before
 * it had them. A birthday party's delivery that refreshed the harvest maps is the newest harvest state: the save
 * is answered with its maps in place and its time is the player's upload time; a delivery that refreshed nothing
 * is marked partial by generate, so none of these reads sees it. The grants and lunabot's lists are the owner tables' (src/db/owner/), handed in.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import { archivedSaveBytes } from "../../archive/encrypted-save.ts";
import type { DataType } from "../../capture/data-types.ts";
import type { LatestSave, PlayerUpload } from "../../store/model/data-api.ts";
import type { DataReads } from "../../store/ports/data-api.ts";
import { first, read, type Statements } from "../dialect/statements.ts";

/** A harvest state: a save with harvest maps, or a party delivery that refreshed them (generate marks the rest partial). */
const ARCHIVED = `s.partial = FALSE AND EXISTS (SELECT 1 FROM archives a WHERE a.save_id = s.id)`;
const LATEST_OF_TYPE = `SELECT s.id, s.sha256, s.source, s.received_at AS "receivedAt", s.data_type AS "dataType" FROM saves s
  WHERE s.player_id = $1 AND coalesce(s.region, $3) = $2 AND s.data_type = $4 AND ${ARCHIVED}
  ORDER BY s.received_at DESC, s.id DESC LIMIT 1`;
const LATEST = read<LatestSave>(LATEST_OF_TYPE, { receivedAt: "int" });
/** The latest full save and the latest refreshing delivery, each by the index. */
const LATEST_STATES = read<LatestSave & { dataType: DataType }>(
  `SELECT * FROM (${LATEST_OF_TYPE}) f UNION ALL SELECT * FROM (${LATEST_OF_TYPE.replace("$4", "$5")}) d`,
  { receivedAt: "int" },
);
const RECENT = read<PlayerUpload>(
  `SELECT s.player_id AS "playerId", max(s.received_at) AS "receivedAt" FROM saves s
  WHERE s.player_id IS NOT NULL AND coalesce(s.region, $2) = $1 AND ${ARCHIVED}
  GROUP BY s.player_id ORDER BY "receivedAt" DESC, s.player_id LIMIT $3`,
  { receivedAt: "int" },
);
const TIMES = read<PlayerUpload>(
  `SELECT s.player_id AS "playerId", max(s.received_at) AS "receivedAt" FROM saves s
  WHERE s.player_id = ANY($3) AND coalesce(s.region, $2) = $1 AND ${ARCHIVED}
  GROUP BY s.player_id`,
  { receivedAt: "int" },
);
const ENCRYPTED = read<{ encrypted: Uint8Array | null; sha256: string; relPath: string | null }>(
  `SELECT s.encrypted, s.sha256, a.rel_path AS "relPath" FROM saves s LEFT JOIN archives a ON a.save_id = s.id WHERE s.id = $1`,
);
const ARCHIVE_FILES = read<{ relPath: string; files: string[] }>(`SELECT rel_path AS "relPath", files FROM archives WHERE save_id = $1`, { files: "json" });

const bare = ({ id, sha256, source, receivedAt }: LatestSave): LatestSave => ({ id, sha256, source, receivedAt });
const newer = (a: LatestSave, b: LatestSave) => a.receivedAt > b.receivedAt || (a.receivedAt === b.receivedAt && a.id > b.id);

/** The save a bot reads: the full save, with the maps of a party refresh that came after it (alone when no full save came before). */
function latestHarvestState(save: LatestSave | undefined, refresh: LatestSave | undefined): LatestSave | null {
  if (refresh === undefined || (save !== undefined && !newer(refresh, save))) return save === undefined ? null : bare(save);
  return save === undefined ? bare(refresh) : { ...bare(save), harvestMaps: bare(refresh) };
}

/** What the data API reads of the owner tables: the tokens' grants, the public switches, lunabot's lists. */
export type OwnerReads = Pick<DataReads, "grant" | "isPublic" | "subscription" | "subscribe">;

export function dataReads(db: Statements, store: ArchiveStore, defaultRegion: string, owner: OwnerReads): DataReads {
  return {
    latest: async (region, playerId, dataType = "mysekai") => {
      if (dataType !== "mysekai") return first(db, LATEST, [playerId, region, defaultRegion, dataType]).then((row) => row && bare(row));
      const rows = await db.all(LATEST_STATES, [playerId, region, defaultRegion, "mysekai", "mysekai_birthday_party"]);
      return latestHarvestState(rows.find((row) => row.dataType === "mysekai"), rows.find((row) => row.dataType !== "mysekai"));
    },
    recentUploads: (region, limit) => db.all(RECENT, [region, defaultRegion, limit]),
    uploadTimes: async (region, playerIds) => (playerIds.length === 0 ? [] : db.all(TIMES, [region, defaultRegion, playerIds])),
    encrypted: async (saveId) => {
      const row = await first(db, ENCRYPTED, [saveId]);
      if (!row) return null;
      if (row.encrypted !== null) return new Uint8Array(row.encrypted);
      const found = await archivedSaveBytes(store, row.relPath, row.sha256);
      return "bytes" in found ? found.bytes : null;
    },
    storedJson: async (saveId) => {
      const archive = await first(db, ARCHIVE_FILES, [saveId]);
      if (!archive?.files.includes(SAVE_JSON_FILE)) return null;
      return store.readSmall(archive.relPath, SAVE_JSON_FILE);
    },
    ...owner,
  };
}
