/**
 * One owner per table: the job table is written by src/db/jobs/ alone (claims, leases, transitions, requeues), the
 * deliveries and consumer webhooks by src/db/deliveries/ alone (but for the retention sweep's bulk delete).
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "../../src");
const JOB_WRITES = /\b(?:insert|update|delete)\(jobs\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) jobs\b/;
const DELIVERY_WRITES = /\b(?:insert|update|delete)\((?:deliveries|dataWebhooks)\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) (?:deliveries|data_webhooks)\b/;
/** Deletes the rows of saves past the retention rule, every table alike, in batches. */
const RETENTION_SWEEP = "db/retention.ts";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

test("no module outside src/db/jobs/ writes the jobs table", () => {
  const writers = sourceFiles(SRC)
    .filter((path) => !relative(SRC, path).startsWith("db/jobs/"))
    .filter((path) => JOB_WRITES.test(readFileSync(path, "utf8")))
    .map((path) => relative(SRC, path));
  expect(writers).toEqual([]);
});

test("the job module itself is seen writing (the pattern matches real writes)", () => {
  const owners = sourceFiles(join(SRC, "db/jobs")).filter((path) => JOB_WRITES.test(readFileSync(path, "utf8")));
  expect(owners.length).toBeGreaterThan(3);
});

test("no module outside src/db/deliveries/ writes the deliveries or the consumer webhooks, but the retention sweep", () => {
  const writers = sourceFiles(SRC)
    .filter((path) => !relative(SRC, path).startsWith("db/deliveries/"))
    .filter((path) => DELIVERY_WRITES.test(readFileSync(path, "utf8")))
    .map((path) => relative(SRC, path));
  expect(writers).toEqual([RETENTION_SWEEP]);
  const owners = sourceFiles(join(SRC, "db/deliveries")).filter((path) => DELIVERY_WRITES.test(readFileSync(path, "utf8")));
  expect(owners.map((path) => relative(SRC, path)).sort()).toEqual(["db/deliveries/data-webhooks.ts", "db/deliveries/pg-store.ts", "db/deliveries/rows.ts"]);
});
