/**
 * Sums a `bun --cpu-prof` profile (Chrome's .cpuprofile JSON) by samples, not by the time between them (an idle
 * thread takes no samples, and the gap before its next one is not CPU): each sample's leaf is its self time, and
 * every distinct frame on its stack gets it as total time. Grouped by where the code lives (a package under
 * node_modules, a folder of src/) and by function. `bun bench/cpu-profile-summary.ts <file.cpuprofile> [--top=30]`
 */
import { readFileSync } from "node:fs";
import { intArg } from "./lib.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
if (!file) throw new Error("usage: bun bench/cpu-profile-summary.ts <file.cpuprofile> [--top=30]");
const top = intArg("top", 30);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** node_modules/<package>, src/<folder>, or the runtime. */
function area(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src\/[^/]+)/.exec(url);
  if (src) return src[1]!.endsWith(".ts") ? src[1]! : `${src[1]}/`;
  return url === "" || url === "[native code]" ? "(native)" : url.replace(/^.*\//, "");
}
const functionOf = (node: ProfileNode) => `${node.callFrame.functionName || "(anonymous)"} ${area(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const selfByArea = new Map<string, number>();
const totalByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const totalByFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
let counted = 0;
for (const sample of profile.samples) {
  const leaf = byId.get(sample)!;
  if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)") continue;
  counted++;
  add(selfByArea, area(leaf.callFrame.url));
  add(selfByFunction, functionOf(leaf));
  const areas = new Set<string>();
  const functions = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(root)") continue;
    areas.add(area(node.callFrame.url));
    functions.add(functionOf(node));
  }
  for (const key of areas) add(totalByArea, key);
  for (const key of functions) add(totalByFunction, key);
}

const table = (title: string, self: Map<string, number>, total: Map<string, number>) => {
  const rows = [...total].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`\n| ${title} | self samples | total samples |\n|---|---|---|`);
  for (const [key, n] of rows) console.log(`| \`${key}\` | ${self.get(key) ?? 0} | ${n} |`);
};
console.log(`${file}: ${counted} samples of the thread at work (of ${profile.samples.length})`);
table("where", selfByArea, totalByArea);
table("function", selfByFunction, totalByFunction);
