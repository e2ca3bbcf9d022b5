/** Both schemas' jobs rows are src/store/model/jobs.ts's JobRow, column for column (checked by `npx tsc --noEmit`). */
import { expect, test } from "bun:test";
import type { jobs as pgJobs } from "../../src/db/pg/schema.ts";
import type { jobs as sqliteJobs } from "../../src/db/schema.ts";
import type { JobRow } from "../../src/store/model/jobs.ts";
import { fits, type Same } from "../helpers/model-fit.ts";

test("SQLite's and PostgreSQL's jobs rows are the model's JobRow", () => {
  const sqlite: Same<typeof sqliteJobs.$inferSelect, JobRow> = true;
  const pg: Same<typeof pgJobs.$inferSelect, JobRow> = true;
  expect(fits(sqlite, pg)).toBe(2);
});
