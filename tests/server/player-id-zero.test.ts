/**
 * A player id with a leading zero (issue 49): the game's ids never start with 0, and `0123…` would otherwise be
 * stored as a second player beside `123…`. An upload or a report naming one gets a clear 400 and stores nothing.
 */
import { expect, test } from "bun:test";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { REPORT_PATH, jsonBytes, harWithSave } from "../helpers/har.ts";
import { serversForThisFile } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";
import { saveUrl, testKeys, uploadSave } from "../helpers/saves.ts";
import { reads } from "../helpers/store-reads.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });
const ZERO = "0485938820123456789";
const PLAIN = ZERO.slice(1);

test("an upload or a report naming a player id that starts with 0 gets 400 saying so, and nothing is stored", async () => {
  const { pair, env } = testKeys();
  const server = await start(env);
  const save = makeEncryptedSample(pair, { seed: 4993, now: Date.now() });
  const upload = await uploadSave(server.url, save, "zero-1", ZERO);
  expect([upload.status, await upload.text()]).toEqual([400, `X-Original-Url: player id ${ZERO} starts with 0: the game's player ids never do`]);
  const report = await fetch(`${server.url}${REPORT_PATH}`, { method: "POST", body: jsonBytes(harWithSave(save, saveUrl(ZERO))) });
  expect([report.status, await report.text()]).toEqual([400, `a session's URL names player id ${ZERO} starts with 0: the game's player ids never do`]);
  expect(await reads(server).saves()).toEqual([]);
  expect(await reads(server).reports()).toEqual([]);
  expect(await reads(server).uploadTasks("zero-1")).toEqual([]);

  // The same save for the id without its zero is taken, as before.
  expect((await uploadSave(server.url, save, "zero-2", PLAIN)).status).toBe(200);
  expect((await reads(server).saves()).map((row) => row.player_id)).toEqual([PLAIN]);

  // The owner's CLI refuses it too: a link made for it would only ever get 400s.
  const cli = await ownerCli(server, "players", "add", ZERO);
  expect(cli.code).toBe(1);
  expect(cli.err + cli.out).toContain("a numeric player id is required (never starting with 0)");
  expect(await reads(server).storedPlayerToken(ZERO)).toBeUndefined();
});
