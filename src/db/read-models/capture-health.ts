/**
 * What the player's page shows of their capture: the newest save (source, the reporting app, region, partial or
 * full) and the newest failed save with its reason. Written once for both stores over their statements (src/db/dialect/).
 */
import type { Region } from "../../capture/regions.ts";
import type { CaptureHealth } from "../../store/model/pages.ts";
import type { CaptureHealthReads } from "../../store/ports/pages.ts";
import { first, read, type Reader } from "../dialect/statements.ts";

interface LatestRow {
  receivedAt: number;
  source: "upload" | "report";
  region: Region | null;
  digest: { partial: boolean; unknown?: string[] } | null;
  shape: string | null;
  meta: Record<string, string> | null;
}

type FailedRow = { receivedAt: number; reason: string | null; region: Region | null };

/** The newest save that did not fail (a party delivery kept as a record is no capture of the save), with its archive's digest and the report it came in, if any. */
const LATEST_CAPTURE = read<LatestRow>(
  `SELECT s.received_at AS "receivedAt", s.source, s.region, a.digest, r.shape, r.meta
  FROM saves s LEFT JOIN archives a ON a.save_id = s.id LEFT JOIN reports r ON r.save_id = s.id
  WHERE s.player_id = $1 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = s.id AND j.state = 'failed')
    AND NOT (s.data_type = 'mysekai_birthday_party' AND s.partial)
  ORDER BY s.received_at DESC, s.id DESC LIMIT 1`,
  { receivedAt: "int", digest: "json", meta: "json" },
);
const LAST_FAILURE = read<FailedRow>(
  `SELECT s.received_at AS "receivedAt", j.last_error AS "reason", s.region
  FROM saves s JOIN jobs j ON j.save_id = s.id
  WHERE s.player_id = $1 AND j.state = 'failed' ORDER BY s.received_at DESC, s.id DESC LIMIT 1`,
  { receivedAt: "int" },
);

function captureHealthOf(latest: LatestRow | null, failure: FailedRow | null): CaptureHealth {
  return {
    latest: latest
      ? {
          receivedAt: latest.receivedAt,
          source: latest.source,
          region: latest.region,
          partial: latest.digest === null ? null : latest.digest.partial,
          unknown: latest.digest?.unknown ?? [],
          report: latest.shape === null ? null : { shape: latest.shape, meta: latest.meta ?? {} },
        }
      : null,
    failure: failure ? { receivedAt: failure.receivedAt, reason: failure.reason ?? "", region: failure.region } : null,
  };
}

export function captureHealthReads(reader: Reader): CaptureHealthReads {
  return {
    captureHealth: async (playerId) => {
      const [latest, failure] = await Promise.all([first(reader, LATEST_CAPTURE, [playerId]), first(reader, LAST_FAILURE, [playerId])]);
      return captureHealthOf(latest, failure);
    },
  };
}
