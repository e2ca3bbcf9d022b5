/**
 * What the player's page shows of their capture: the newest save (source, the reporting app, region, partial or
 * full) and the newest failed save with its reason. SQLite's reads here, a hub's in src/db/pg/read-models/capture-health.ts.
 */
import type { Region } from "../../capture/regions.ts";
import type { Db } from "../open.ts";

export interface LatestCapture {
  receivedAt: number;
  source: "upload" | "report";
  region: Region | null;
  /** null: not drawn yet. */
  partial: boolean | null;
  /** The report's shape and the capture tool's headers (Reqable's platform, ProxyPin's rule name); null for uploads. */
  report: { shape: string; meta: Record<string, string> } | null;
}

export interface FailedCapture {
  receivedAt: number;
  reason: string;
  /** Its time is shown in this region's zone. */
  region: Region | null;
}

export interface CaptureHealth {
  latest: LatestCapture | null;
  failure: FailedCapture | null;
}

export interface CaptureHealthReads {
  captureHealth(playerId: string): Promise<CaptureHealth>;
}

/** Shared by both stores: the newest save that did not fail, with its archive's digest and the report it came in, if any. */
export const LATEST_CAPTURE = `SELECT s.received_at AS "receivedAt", s.source, s.region, a.digest, r.shape, r.meta
  FROM saves s LEFT JOIN archives a ON a.save_id = s.id LEFT JOIN reports r ON r.save_id = s.id
  WHERE s.player_id = $1 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = s.id AND j.state = 'failed')
  ORDER BY s.received_at DESC, s.id DESC LIMIT 1`;
export const LAST_FAILURE = `SELECT s.received_at AS "receivedAt", j.last_error AS reason, s.region
  FROM saves s JOIN jobs j ON j.save_id = s.id
  WHERE s.player_id = $1 AND j.state = 'failed' ORDER BY s.received_at DESC, s.id DESC LIMIT 1`;

export interface LatestRow {
  receivedAt: number | string;
  source: "upload" | "report";
  region: Region | null;
  digest: { partial: boolean } | null;
  shape: string | null;
  meta: Record<string, string> | null;
}

export type FailedRow = { receivedAt: number | string; reason: string | null; region: Region | null };

export function captureHealthOf(latest: LatestRow | undefined, failure: FailedRow | undefined): CaptureHealth {
  return {
    latest: latest
      ? {
          receivedAt: Number(latest.receivedAt),
          source: latest.source,
          region: latest.region,
          partial: latest.digest === null ? null : latest.digest.partial,
          report: latest.shape === null ? null : { shape: latest.shape, meta: latest.meta ?? {} },
        }
      : null,
    failure: failure ? { receivedAt: Number(failure.receivedAt), reason: failure.reason ?? "", region: failure.region } : null,
  };
}

const sqliteText = (sql: string) => sql.replaceAll("$1", "?1");
type SqliteLatest = Omit<LatestRow, "digest" | "meta"> & { digest: string | null; meta: string | null };

export function sqliteCaptureHealthReads(db: Db): CaptureHealthReads {
  const latest = db.$client.query(sqliteText(LATEST_CAPTURE));
  const failure = db.$client.query(sqliteText(LAST_FAILURE));
  return {
    captureHealth: async (playerId) => {
      const row = latest.get(playerId) as SqliteLatest | null;
      const failed = failure.get(playerId) as FailedRow | null;
      const parsed = row ? { ...row, digest: row.digest === null ? null : JSON.parse(row.digest), meta: row.meta === null ? null : JSON.parse(row.meta) } : undefined;
      return captureHealthOf(parsed, failed ?? undefined);
    },
  };
}
