import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "mysekai-binary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the one-file build (resvg addon, fonts, migrations inside) runs the demo from a folder without the sources", async () => {
  const binary = join(dir, "mysekai-ingest");
  const build = Bun.spawnSync([process.execPath, "scripts/build-binary.ts", binary], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(build.exitCode).toBe(0);

  const demo = Bun.spawn([process.execPath, join(ROOT, "scripts", "demo.ts"), join(dir, "data"), "--binary", binary], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [output, errors, code] = await Promise.all([new Response(demo.stdout).text(), new Response(demo.stderr).text(), demo.exited]);
  expect({ code, errors: code === 0 ? "" : errors }).toEqual({ code: 0, errors: "" });
  expect(output).toContain("→ 200 OK");
  for (const name of ["site_5.png", "site_8.png", "overview.png", "summary.json"]) expect(output).toContain(`  ${name}`);
  // Drawn maps, not placeholders (the fonts are checked by eye in the report: text renders in the binary).
  const folder = /maps and summary archived in (\S+):/.exec(output)![1]!;
  expect((await Bun.file(join(folder, "site_5.png")).bytes()).byteLength).toBeGreaterThan(50_000);
}, 60_000);
