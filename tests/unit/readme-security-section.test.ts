/**
 * The READMEs' security section (English and simplified Chinese), a self-contained `##` section, against the code it
 * describes: the commands it names exist, the lane's defaults are the configuration's, and it says what a tokenless
 * upload can do and what it cannot once a player has used their link.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli-args.ts";
import { loadConfig } from "../../src/config/index.ts";

const root = join(import.meta.dir, "../..");
/** The `##` section whose heading starts with `heading`, its line breaks joined. */
function section(file: string, heading: string, joiner: string): string {
  const text = readFileSync(join(root, file), "utf8");
  const start = text.indexOf(`\n## ${heading}`);
  expect(start).toBeGreaterThan(0);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end).replace(/\n[ \t]+/g, "\n").replace(/\n(?!\n)/g, joiner);
}

const { consumers } = loadConfig({}).notify;

test.each([
  ["README.md", "Security:", " ", "can no longer fake their failures or finds", `\`DATA_WEBHOOK_CONCURRENCY\` (default ${consumers.concurrency})`],
  ["README.zh-CN.md", "安全：", "", "无凭据上传再也不能伪造他的失败或发现", `\`DATA_WEBHOOK_CONCURRENCY\`（默认 ${consumers.concurrency}）`],
])("%s: the security section names real commands and the lane's defaults, and what a tokenless upload cannot do", (file, heading, joiner, cannot, concurrency) => {
  const text = section(file, heading, joiner);
  for (const command of ["players unlock", "sessions end", "players add", "data-webhooks add"]) {
    expect(Object.keys(COMMANDS)).toContain(command);
    expect(text).toContain(command);
  }
  expect(text).toContain(concurrency);
  expect(text).toContain(`${consumers.timeoutMs.toLocaleString("en")}`);
  expect(text).toContain("403 player <id> uploads only through their own link");
  expect(text).toContain(cannot);
});
