/** The read model contract suites' rows (tests/contract/read-models.*.contract.test.ts), inserted on the store under test. */
import { sha256Hex } from "../../src/sha256.ts";
import type { Delivery } from "../../src/store/model/deliveries.ts";
import type { ArchivesRow } from "../../src/store/model/archives.ts";
import type { RefreshDigest } from "../../src/maps/refresh-digest.ts";
import type { SaveRow } from "../../src/store/model/saves.ts";
import type { ReportRow } from "../../src/store/model/uploads.ts";
import type { JobRow } from "../../src/store/model/jobs.ts";
import type { StoreUnderTest } from "./contract-stores.ts";

export const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Past 2^53: a number would round them. */
export const PLAYER = "7485938820123456789";
export const OTHER = "9007199254740993123";
export const THIRD = "1000000000000000001";

export const digest = (name: string): RefreshDigest => ({ partial: false, rare: [{ name, tier: "rare", total: 2 }], newSongs: [], more: 0, sites: [{ siteId: 6, name: "Flower garden" }] });
export const MAPS = ["save.bin", "site_6.png", "site_5.png", "overview.png"];
let saves = 0;
/** The data API's region for a save that names none (DEFAULT_REGION's default). */
export const DEFAULT_REGION = "jp";

/** Rows as the stores leave them, every field as a test sets it: what each read answers is the subject here. */
export interface Inserts {
  save(values: Partial<SaveRow>): Promise<number>;
  archive(values: Partial<ArchivesRow> & { saveId: number }): Promise<void>;
  job(values: Partial<JobRow>): Promise<number>;
  delivery(values: Partial<Delivery>): Promise<number>;
  report(values: Partial<ReportRow>): Promise<number>;
}

export function readModelRows(s: StoreUnderTest) {
  const insert: Inserts = {
    save: (values) => s.sql.insert("saves", values),
    archive: async (values) => void (await s.sql.insert("archives", values)),
    job: (values) => s.sql.insert("jobs", values),
    delivery: (values) => s.sql.insert("deliveries", values),
    report: (values) => s.sql.insert("reports", values),
  };

  const save = (playerId: string, receivedAt: number, extra: Partial<Parameters<Inserts["save"]>[0]> = {}) => {
    const encrypted = new TextEncoder().encode(`save ${++saves} of ${playerId} at ${receivedAt}`);
    return insert.save({ sha256: sha256Hex(encrypted), playerId, source: "upload", encrypted, size: encrypted.length, receivedAt, ...extra });
  };
  const archive = async (saveId: number, playerId: string, createdAt: number, files = MAPS, refresh: RefreshDigest | null = digest(`find ${saveId}`)) => {
    await insert.archive({ saveId, playerId, relPath: `by-id/${playerId}/${saveId}`, token: `token-${saveId}`, files, digest: refresh, createdAt });
  };
  const archived = async (playerId: string, at: number, files = MAPS, extra = {}) => {
    const id = await save(playerId, at, extra);
    await archive(id, playerId, at, files);
    return id;
  };
  return { insert, save, archive, archived };
}
