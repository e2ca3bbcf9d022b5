/**
 * The owner's catalogue update (src/catalogue/update.ts), written once for both stores (src/db/dialect/): one row
 * of `settings`, so SQLite keeps it in DATA_DIR's database and a hub's PostgreSQL shares it with every process.
 * Each process reads the row's stamp every half minute and the text only when the stamp moved.
 */
import type { CatalogueRecords } from "../../store/ports/owner.ts";
import { first, read, type Statements } from "../dialect/statements.ts";

const KEY = "catalogue_update";

const STAMP = read<{ updatedAt: number }>(`SELECT updated_at AS "updatedAt" FROM settings WHERE key = $1`, { updatedAt: "int" });
const TEXT = read<{ value: string; updatedAt: number }>(`SELECT value, updated_at AS "updatedAt" FROM settings WHERE key = $1`, { updatedAt: "int" });
/** updated_at only moves forward: two updates within one millisecond still change the stamp every process compares. */
const PUT = read(
  `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
   ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = CASE WHEN excluded.updated_at > settings.updated_at THEN excluded.updated_at ELSE settings.updated_at + 1 END`,
);

export function catalogueRecords(db: Statements): CatalogueRecords {
  return {
    stamp: async () => (await first(db, STAMP, [KEY]))?.updatedAt ?? null,
    read: async () => {
      const row = await first(db, TEXT, [KEY]);
      return row === null ? null : { stamp: String(row.updatedAt), text: row.value };
    },
    write: async (text, now = Date.now()) => void (await db.all(PUT, [KEY, text, now])),
  };
}
