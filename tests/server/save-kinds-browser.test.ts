/**
 * The status page's recent saves in Chromium at 390 px and 1280 px, with a full save, a partial refresh and a
 * birthday party's delivery of one player: the two that are not the full save say what they are, and the page fits.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { birthdayDelivery, DELIVERY_URL } from "../helpers/birthday-party.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { REAL_SAVE_URL, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();

async function ingest(server: RunningServer, body: Uint8Array, uploadId: string, url: string) {
  expect((await uploadRealForm(server.url, body, uploadId, url)).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, saveId, "done", 60_000, `save ${saveId} done`);
}

test.skipIf(noChromium)("recent saves mark the partial refresh and the birthday party, at 390 px and 1280 px", async () => {
  const { pair, env } = testKeys();
  const server = await start({ ...env, NOTIFY_DEFAULT: "none" });
  await ingest(server, encryptRaw(pair, realSave()), "full", REAL_SAVE_URL);
  const partial = realSave();
  (partial.updatedResources as Record<string, unknown>).userMysekaiHarvestMaps = [];
  await ingest(server, encryptRaw(pair, partial), "partial", REAL_SAVE_URL.replace("=True", "=False"));
  await ingest(server, encryptRaw(pair, birthdayDelivery()), "party", DELIVERY_URL);

  const { browser } = await openBrowser();
  for (const width of [390, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(server.url);
    const rows = await page.locator("section", { has: page.locator("h2", { hasText: "Recent saves" }) }).locator("tr:has(td)").allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain("birthday party");
    expect(rows[1]).toContain("partial refresh (no harvest maps)");
    expect(rows[2]).not.toMatch(/birthday party|partial refresh/);
    expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await page.screenshot({ path: join(server.dataDir, `recent-saves-${width}.png`), fullPage: true });
    if (process.env.KEEP_SHOTS) await page.screenshot({ path: `${process.env.KEEP_SHOTS}/recent-saves-${width}.png`, fullPage: true });
    await page.close();
  }
}, 120_000);
