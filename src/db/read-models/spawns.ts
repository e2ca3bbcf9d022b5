/** The archives a player's month of spawns is read from, written once for both stores over their statements (src/db/dialect/). */
import { HISTORY_ROWS, type SpawnArchive } from "../../store/model/pages.ts";
import type { SpawnReads } from "../../store/ports/pages.ts";
import { read, type Reader } from "../dialect/statements.ts";

const ARCHIVES_SINCE = read<SpawnArchive>(
  `SELECT s.id AS "saveId", s.received_at AS "receivedAt", a.rel_path AS "relPath", a.digest
  FROM saves s JOIN archives a ON a.save_id = s.id WHERE s.player_id = $1 AND s.received_at >= $2
  ORDER BY s.received_at DESC, s.id DESC LIMIT ${HISTORY_ROWS}`,
  { receivedAt: "int", digest: "json" },
);

export function spawnReads(reader: Reader): SpawnReads {
  return { archivesSince: (playerId, since) => reader.all(ARCHIVES_SINCE, [playerId, since]) };
}
