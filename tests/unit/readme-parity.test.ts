/**
 * README.md and README.zh-CN.md are one document in two languages: the same sections (heading levels, in order),
 * and in each section the same commands (code blocks, command lines in inline code), the same settings (the
 * environment variables the config reads) and the same pointers into docs/. Prose, headings' words and comments
 * in code are the language's own; `text` blocks show output, which may be in the reader's language. Also: every
 * relative link in the READMEs and docs/ reaches a file, and its #anchor a heading or `<a id>` there.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** Every name the service reads from its environment: quoted in src/config/*.ts and src/launch-env.ts. */
const SETTINGS = (() => {
  const sources = [...readdirSync(join(ROOT, "src/config")).map((name) => `src/config/${name}`), "src/launch-env.ts"].map(read).join("\n");
  const names = new Set([...sources.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"/g)].map((match) => match[1]!));
  for (const name of ["HOST", "PORT"]) names.add(name);
  return [...names];
})();

/** Inline code that is a command to type. */
const COMMAND = /^(?:npm|bun|node|git|docker|sudo|systemctl|journalctl|sqlite3|ssh|openssl|mkdir|cp|kill|nohup|curl|echo|apt-get|mysekai-ingest|mysekai-cli)\s/;

interface Section {
  level: number;
  heading: string;
  blocks: string[];
  commands: Set<string>;
  settings: Set<string>;
  links: Set<string>;
}

/** Code without its comments (`# …` to the end of a line, and SQL's `-- …` lines) and blank lines. */
const withoutComments = (code: string) =>
  code
    .split("\n")
    .map((line) => line.replace(/(^|\s)#(?![!{]).*$/, "").replace(/^\s*--\s.*$/, "").trimEnd())
    .filter((line) => line !== "")
    .join("\n");

function sectionsOf(file: string): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  let fence: { lang: string; lines: string[] } | null = null;
  const text: string[] = [];
  const close = () => {
    if (current === null) return;
    const prose = text.join("\n");
    for (const [, code] of prose.replace(/\n(?!\n)/g, " ").matchAll(/`([^`]+)`/g)) if (COMMAND.test(code!)) current.commands.add(code!.trim());
    // A screenshot in the README's own language (docs/x.zh-CN.png) stands for the same one (docs/x.png).
    for (const [, target] of prose.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) if (!/^https?:|^README/.test(target!)) current.links.add(target!.replace(/\.zh-CN(\.png)$/, "$1"));
    for (const name of SETTINGS) if (new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(prose)) current.settings.add(name);
    text.length = 0;
  };
  for (const line of read(file).split("\n")) {
    if (fence !== null) {
      if (/^\s*```\s*$/.test(line)) {
        if (fence.lang !== "text") current?.blocks.push(`${fence.lang}\n${withoutComments(fence.lines.join("\n"))}`);
        text.push(fence.lines.join("\n"));
        fence = null;
      } else fence.lines.push(line);
      continue;
    }
    const opening = /^\s*```(\w*)\s*$/.exec(line);
    if (opening) {
      fence = { lang: opening[1]!, lines: [] };
      continue;
    }
    const heading = /^(#{1,6}) (.+)$/.exec(line);
    if (heading) {
      close();
      current = { level: heading[1]!.length, heading: heading[2]!, blocks: [], commands: new Set(), settings: new Set(), links: new Set() };
      sections.push(current);
    } else text.push(line);
  }
  close();
  return sections;
}

const english = sectionsOf("README.md");
const chinese = sectionsOf("README.zh-CN.md");
const outline = (sections: Section[]) => sections.map((section) => `${"#".repeat(section.level)} ${section.heading}`);
const sorted = (set: Set<string>) => [...set].sort();

test("the two READMEs have the same sections: the same heading levels in the same order", () => {
  expect(english.length).toBeGreaterThan(10);
  expect({ levels: chinese.map((section) => section.level), outline: outline(chinese) }).toEqual({
    levels: english.map((section) => section.level),
    outline: expect.any(Array),
  });
});

test("each section gives the same commands, settings and docs/ pointers in both languages", () => {
  expect(chinese.length).toBe(english.length);
  english.forEach((section, index) => {
    const other = chinese[index]!;
    const facts = (s: Section) => ({ blocks: s.blocks, commands: sorted(s.commands), settings: sorted(s.settings), links: sorted(s.links) });
    // The pair's headings lead the comparison, so a failure says which section drifted.
    expect({ section: `${section.heading} / ${other.heading}`, ...facts(other) }).toEqual({ section: `${section.heading} / ${other.heading}`, ...facts(section) });
  });
  // The comparison sees what matters: commands and settings are found at all.
  const all = english.flatMap((section) => [...section.commands, ...section.settings]);
  expect(all).toEqual(expect.arrayContaining(["npm run cli -- api-tokens add lunabot", "ONEBOT_URL", "ONEBOT_TARGET", "NOTIFY_DEFAULT", "HOST", "AES_KEY", "AES_IV"]));
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

function anchorsOf(path: string): Set<string> {
  const text = read(path).replace(/```[\s\S]*?```/g, "");
  const anchors = new Set([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!));
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) anchors.add(slug(heading!));
  return anchors;
}

test("every relative link in the READMEs and docs/ reaches a file, and its anchor a heading there", () => {
  const pages = ["README.md", "README.zh-CN.md", "BENCHMARKS.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = read(page).replace(/```[\s\S]*?```/g, "");
    for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const file = target === "" ? page : relative(ROOT, resolve(ROOT, dirname(page), target!));
      checked++;
      if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(decodeURIComponent(anchor))) broken.push(`${page}: ${target}#${anchor} (no such heading)`);
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(broken).toEqual([]);
});
