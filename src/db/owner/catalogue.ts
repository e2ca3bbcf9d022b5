/**
 * The owner's catalogue update (src/catalogue/update.ts), written once for both stores (src/db/dialect/): one row
 * of `settings`, so SQLite keeps it in DATA_DIR's database and a hub's PostgreSQL shares it with every process.
 * Each process reads the row's stamp every half minute and the text only when the stamp moved.
 */
import type { CatalogueRecords } from "../../store/ports/owner.ts";
import { first, read, type Statements } from "../dialect/statements.ts";
import { putSettingMovingStamp } from "./setup-tokens.ts";

const KEY = "catalogue_update";

const STAMP = read<{ updatedAt: number }>(`SELECT updated_at AS "updatedAt" FROM settings WHERE key = $1`, { updatedAt: "int" });
const TEXT = read<{ value: string; updatedAt: number }>(`SELECT value, updated_at AS "updatedAt" FROM settings WHERE key = $1`, { updatedAt: "int" });

export function catalogueRecords(db: Statements): CatalogueRecords {
  return {
    stamp: async () => (await first(db, STAMP, [KEY]))?.updatedAt ?? null,
    read: async () => {
      const row = await first(db, TEXT, [KEY]);
      return row === null ? null : { stamp: String(row.updatedAt), text: row.value };
    },
    write: (text, now = Date.now()) => putSettingMovingStamp(db, KEY, text, now),
  };
}
