/**
 * The READMEs' security section (English and simplified Chinese) and docs/security.md against the code they
 * describe: the commands they name exist, the consumer lane's defaults are the configuration's, and both READMEs say
 * what a tokenless upload can do and what it cannot once a player has used their link.
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
const commandsIn = (text: string, commands: string[]) => {
  for (const command of commands) {
    expect(Object.keys(COMMANDS)).toContain(command);
    expect(text).toContain(command);
  }
};

test.each([
  ["README.md", "Security", " ", "can no longer fake their failures or finds"],
  ["README.zh-CN.md", "安全", "", "无凭据上传再也不能伪造他的失败或发现"],
])("%s: the security section names real commands and says what a tokenless upload cannot do", (file, heading, joiner, cannot) => {
  const text = section(file, heading, joiner);
  commandsIn(text, ["players unlock", "sessions end", "players add"]);
  expect(text).toContain("403 player <id> uploads only through their own link");
  expect(text).toContain(cannot);
});

test("docs/security.md: the consumer lane's defaults are the configuration's", () => {
  const text = section("docs/security.md", "Players' links", " ");
  commandsIn(text, ["players unlock", "sessions end", "players add", "data-webhooks add"]);
  expect(text).toContain(`\`DATA_WEBHOOK_CONCURRENCY\` (default ${consumers.concurrency})`);
  expect(text).toContain(`${consumers.timeoutMs.toLocaleString("en")}`);
  expect(text).toContain("403 player <id> uploads only through their own link");
});
