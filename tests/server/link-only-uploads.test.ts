/**
 * Uploads under a player's id that cannot be forged once the player has a token (issue 49, point 3): a fresh
 * install takes the contract's tokenless upload; once the player uploaded through their own link, an upload or a
 * report naming them without it is refused (a 403 saying how to fix it; a report's job fails with the reason),
 * their page says so, and `cli players unlock` lifts it. Other players are not affected.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { reads } from "../helpers/store-reads.ts";
import { gzipReport, REPORT_PATH } from "../helpers/har.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";
import { saveUrl, testKeys, uploadSave } from "../helpers/saves.ts";
import { uploadChunk } from "../../scripts/lib/upload-client.ts";

const LINKED = "1000000000000000495";
const STRANGER = "1000000000000000496";
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none" });
let server: RunningServer;
let link: string;
let seed = 4950;
const save = () => makeEncryptedSample(pair, { seed: seed++, now: Date.now() });

async function finished(uploadId: string): Promise<void> {
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await eventually(async () => ["done", "failed"].includes((await reads(server).job(id))?.state ?? ""), 30_000, `save ${id} finished`);
}

const viaLink = (body: Uint8Array, uploadId: string, playerId = LINKED) =>
  fetch(`${server.url}${link}/uploadSaveData`, { method: "POST", body, headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": saveUrl(playerId) } });
const page = async () => (await fetch(`${server.url}${link}`, { headers: { "accept-language": "en" } })).text();
const savesOf = async (playerId: string) => (await reads(server).saves()).filter((save) => save.player_id === playerId).length;

beforeAll(async () => {
  server = await start();
  link = /\/p\/[A-Za-z0-9_-]+/.exec((await ownerCli(server, "players", "add", LINKED)).out)![0];
}, 60_000);

describe("a player's uploads once they have a token", () => {
  test("a fresh install takes the contract's tokenless upload for a linked player, and the page says until when", async () => {
    const id = crypto.randomUUID();
    expect((await uploadSave(server.url, save(), id, LINKED)).status).toBe(200);
    await finished(id);
    expect(await page()).toContain("Until your first upload through the module below");
  });

  test("after an upload through the link: tokenless uploads naming the player get a 403 saying how to fix it", async () => {
    const id = crypto.randomUUID();
    expect((await viaLink(save(), id)).status).toBe(200);
    await finished(id);
    const before = await savesOf(LINKED);
    const refused = await uploadSave(server.url, save(), crypto.randomUUID(), LINKED);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(`player ${LINKED} uploads only through their own link: install the module from their page (/p/…) again, or the owner runs \`cli players unlock ${LINKED}\``);
    // A chunked upload's first chunk too: nothing of it is stored.
    expect((await uploadChunk(server.url, save().slice(0, 1024), crypto.randomUUID(), 0, 2, LINKED)).status).toBe(403);
    expect(await savesOf(LINKED)).toBe(before);
    expect(await page()).toContain("taken only through your own link");
    expect(server.output()).toContain(`rejected: no link for a player who uploads through theirs status=403 player=${LINKED}`);
    // Through the link it goes on; another player's tokenless upload is taken as before.
    expect((await viaLink(save(), crypto.randomUUID())).status).toBe(200);
    expect((await uploadSave(server.url, save(), crypto.randomUUID(), STRANGER)).status).toBe(200);
  });

  test("a report naming the player is not taken: its job fails with the reason, no save of theirs is stored", async () => {
    const before = await savesOf(LINKED);
    const response = await fetch(`${server.url}${REPORT_PATH}`, { method: "POST", body: gzipReport(save(), saveUrl(LINKED)), headers: { "content-encoding": "gzip" } });
    expect(response.status).toBe(200);
    const job = await eventually(async () => (await reads(server).jobs()).filter((job) => job.report_id !== null && ["done", "failed"].includes(job.state)).at(-1), 30_000, "the report's job finished");
    expect(job.state).toBe("failed");
    expect(job.last_error).toContain(`names player ${LINKED}, who uploads only through their own link`);
    expect(await savesOf(LINKED)).toBe(before);
  });

  test("the owner's `cli players unlock` takes tokenless uploads again, until the player's next upload through the link", async () => {
    const unlocked = await ownerCli(server, "players", "unlock", LINKED);
    expect([unlocked.code, unlocked.out]).toEqual([0, expect.stringContaining("uploads without their link are taken again")]);
    expect((await uploadSave(server.url, save(), crypto.randomUUID(), LINKED)).status).toBe(200);
    expect((await viaLink(save(), crypto.randomUUID())).status).toBe(200);
    expect((await uploadSave(server.url, save(), crypto.randomUUID(), LINKED)).status).toBe(403);
  });
});
