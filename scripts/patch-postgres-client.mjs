#!/usr/bin/env node
// npm's postinstall: the fix of postgres.js 3.4.9's dropped-connection bug (porsager/postgres issues 1066, 1154,
// 1208; its pull requests are unmerged), applied to node_modules/postgres. A write queued for a connection that
// closed before it went out threw `socket.write` on null from a timer, which killed the process; and a close left
// the queued bytes and a spent timer behind, so the connection never wrote again (every later query on it hung).
// Now such a write settles its queries with CONNECTION_CLOSED, and a close forgets what it had queued. Run again
// it changes nothing; against another version it fails loudly, so an upgrade is checked by hand.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MARK = "/* mysekai-ingest: dropped-connection fix */";
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "postgres");
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
if (version !== "3.4.9") fail(`postgres ${version} is not 3.4.9: check whether it fixes porsager/postgres#1208, then update or drop this script`);

const edits = [
  {
    from: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    to:
      `  function nextWrite(fn) {\n    ${MARK}\n    if (!socket) {\n      const err = Errors.connection('CONNECTION_CLOSED', options)\n` +
      "      chunk = nextWriteTimer = null\n      error(err)\n      fn && fn(err)\n      return false\n    }\n    const x = socket.write(chunk, fn)\n",
    count: 1,
  },
  { from: "    clearImmediate(nextWriteTimer)\n", to: "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n", count: 2 },
];

for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
  const path = join(root, file);
  let text = readFileSync(path, "utf8");
  if (text.includes(MARK)) continue;
  for (const { from, to, count } of edits) {
    const found = text.split(from).length - 1;
    if (found !== count) fail(`${file}: expected ${count} of ${JSON.stringify(from)}, found ${found}`);
    text = text.replaceAll(from, to);
  }
  writeFileSync(path, text);
}

function fail(message) {
  console.error(`patch-postgres-client: ${message}`);
  process.exit(1);
}
