import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGenerate, type GenerateRequest } from "../../src/pipeline/tasks.ts";
import { makeFreshEncryptedSample, randomKeys } from "../../src/samples/index.ts";

const dir = mkdtempSync(join(tmpdir(), "mysekai-generate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { pair } = randomKeys();

function request(root: string): GenerateRequest {
  return {
    encrypted: makeFreshEncryptedSample(pair),
    keys: [{ label: "test", key: pair.key, iv: pair.iv }],
    playerId: "7412589630147258963",
    ownerName: null,
    capturedAt: Date.UTC(2026, 10, 28, 4, 0, 0),
    locale: "zh-Hans",
    showHarvested: false,
    commonLabels: "none",
    assetsDir: null,
    timeZone: "Asia/Shanghai",
    maxWidthPx: 1000,
    archive: { location: { kind: "disk", root }, saveId: 1, folder: undefined },
    storeJson: true,
    dataType: "mysekai",
    catalogue: null,
  };
}

test("the task writes every file of the save into its folder and says when the maps are drawn", async () => {
  let rendered = false;
  const result = await runGenerate(request(join(dir, "archive")), () => (rendered = true));
  expect(rendered).toBe(true);
  if (result.kind !== "generated") throw new Error(result.kind);
  expect(result.archived.files.sort()).toEqual(["overview.png", "rare_resources.txt", "save.bin", "save.json.gz", "site_5.png", "site_6.png", "site_7.png", "site_8.png", "summary.json"]);
});

test("a store that fails while the maps still draw fails the task only once they are drawn (none left running beside the next task)", async () => {
  // A file where the archive's root should be: the first mkdir fails at once, long before the renders end.
  const blocked = join(dir, "blocked");
  writeFileSync(blocked, "not a folder");
  let rendered = false;
  await expect(runGenerate(request(blocked), () => (rendered = true))).rejects.toThrow();
  expect(rendered).toBe(true);
});
