/** One owner per table: the job table is written by src/db/jobs/ alone (claims, leases, transitions, requeues). */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "../../src");
const JOB_WRITES = /\b(?:insert|update|delete)\(jobs\)|\b(?:INSERT INTO|UPDATE|DELETE FROM) jobs\b/;

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
