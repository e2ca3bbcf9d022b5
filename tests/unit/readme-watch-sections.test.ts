/**
 * The READMEs' watch sections (English and simplified Chinese) against the code they describe: the route modes of
 * push_map.json, the watch commands, the spawn images' span and cap. A figure changed in one place and not the other
 * fails here.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli-args.ts";
import { DEFAULT_NUDGE_HOURS } from "../../src/nudge/run.ts";
import { ROUTE_MODES } from "../../src/notify/routing.ts";
import { MAX_SPOTS } from "../../src/spawns/svg.ts";
import { HISTORY_DAYS } from "../../src/store/model/pages.ts";

const root = join(import.meta.dir, "../..");
/** The text with its line breaks joined (Chinese wraps without spaces, English with one). */
const read = (file: string, joiner: string) => readFileSync(join(root, file), "utf8").replace(/\n(?!\n)/g, joiner);

test.each([
  ["README.md", " ", `At most ${MAX_SPOTS} spots are drawn`, `last ${HISTORY_DAYS} days`, `default ${DEFAULT_NUDGE_HOURS} h`],
  ["README.zh-CN.md", "", `最多画 ${MAX_SPOTS} 个位置`, `最近 ${HISTORY_DAYS} 天`, `默认 ${DEFAULT_NUDGE_HOURS} 小时`],
])("%s: the route modes, the watch commands, the nudge's default and the spawn images as the code has them", (file, joiner, cap, days, nudge) => {
  const text = read(file, joiner);
  for (const mode of ROUTE_MODES) expect(text).toContain(`\`${mode}\``);
  expect(text).toContain('"mode": "watched"');
  for (const command of ["watch add", "watch nudge"]) {
    expect(Object.keys(COMMANDS)).toContain(command);
    expect(text).toContain(command);
  }
  expect(text).toContain("spawns/site_<id>.png");
  expect(text).toContain(cap);
  expect(text).toContain(days);
  expect(text).toContain(nudge);
});
