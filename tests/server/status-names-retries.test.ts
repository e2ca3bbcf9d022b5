/**
 * The status page names players the owner named (`players add --name`), and a push waiting for its next try shows
 * as that, with its error, not behind "Nothing failed".
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

setDefaultTimeout(60_000);
const start = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();
const { pair, env: keyEnv } = testKeys();
/** As long as `players add --name` takes, and without a space to break at. */
const NAME = "Mizuki_of_the_Nightcord_at_25_with_a_name_as_long_as_allowed_64";
let receiver: RecordingServer;

beforeAll(async () => {
  receiver = await startRecordingServer({ defaultResponse: { status: 503, body: "down for now" } });
});
afterAll(() => receiver.stop());

async function saveDone(server: RunningServer, uploadId: string, state: string): Promise<number> {
  expect((await uploadSave(server.url, encryptedSave(pair), uploadId)).status).toBe(200);
  const saveId = await eventually(() => reads(server).saveOfUpload(uploadId), 20_000, "the save");
  await jobReaches(server, saveId, state, 30_000, `the save's job ${state}`);
  return saveId;
}

test("a push waiting for a retry is listed as waiting, with its error and when it runs, not as nothing failed", async () => {
  // The webhook answers 503 and the next try is a minute away: the job waits in pending_retry.
  const server = await start({ ...keyEnv, WEBHOOK_URL: `${receiver.url}/hook`, JOB_BACKOFF_MS: "60000,60000" });
  const saveId = await saveDone(server, "retry-1", "pending_retry");
  const page = await (await fetch(server.url)).text();
  expect(page).not.toContain("Nothing failed");
  expect(page).toContain(`push webhook/default · save ${saveId}`);
  expect(page).toContain("waiting for a retry at");
  expect(page).toContain("HTTP 503");
  // Nothing failed for good: the button that retries failed work is not offered.
  expect(page).not.toContain("retry everything that failed");
});

test("a name given with players add --name shows beside the player's id in the latest maps and recent saves, and fits a phone", async () => {
  const server = await start({ ...keyEnv, NOTIFY_DEFAULT: "none" });
  await ownerCliLastLine(server, "players", "add", PLAYER_ID, "--name", NAME);
  await saveDone(server, "named-1", "done");
  const page = await (await fetch(server.url)).text();
  expect(page).toContain(`<a href="/players/${PLAYER_ID}">${NAME}</a>`);
  expect(page.split(NAME).length - 1).toBe(2);
  if (noChromium) return;
  const { browser } = await openBrowser();
  for (const width of [390, 1280]) {
    const tab = await browser.newPage({ viewport: { width, height: 900 } });
    await tab.goto(server.url);
    await tab.screenshot({ path: join(process.env.SHOTS_DIR ?? server.dataDir, `status-names-${width}.png`), fullPage: true });
    expect(await tab.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await tab.close();
  }
});
