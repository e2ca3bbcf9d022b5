/**
 * The Chinese README's screenshots: the status page and the setup page as a zh-CN phone (390 px) sees them, after
 * a sample CN save from a player the owner named. `bun scripts/readme-shots.ts` writes docs/*.zh-CN.png; the English
 * ones come from the browser tests (SCREENSHOT_DOCS=1). Kept under 250 KB each: one device pixel per CSS pixel.
 * Chromium needs a Chinese font: one installed (Debian: fonts-noto-cjk or fonts-wqy-microhei), or FONT_DIR=<folder>
 * with one (e.g. `apt-get download fonts-wqy-microhei` unpacked with `dpkg -x`).
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { REGION_HOSTS } from "../src/capture/regions.ts";
import { makeEncryptedSample, randomKeys, SAMPLE_PLAYER_ID } from "../src/samples/index.ts";
import { eventually } from "./lib/eventually.ts";
import { startService } from "./lib/service-process.ts";

const DOCS = resolve(import.meta.dir, "..", "docs");
const ADMIN_TOKEN = "readme-shots-token-0123456789";
const { pair, env } = randomKeys();
const service = await startService({ env: { ...env, ADMIN_TOKEN, LANG: "zh_CN.UTF-8", PUBLIC_BASE_URL: "https://sekai.example.com" } });
try {
  const cli = (...args: string[]) => Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { PATH: process.env.PATH ?? "", DATA_DIR: service.dataDir } });
  cli("players", "add", SAMPLE_PLAYER_ID, "--name", "小明");
  const save = makeEncryptedSample(pair, { seed: 47, now: Date.now(), rareEverywhere: true });
  const answer = await fetch(`${service.url}/uploadSaveData`, {
    method: "POST",
    body: save,
    headers: { "X-Upload-Id": "shot-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/${SAMPLE_PLAYER_ID}/mysekai` },
  });
  if (!answer.ok) throw new Error(`upload answered ${answer.status}`);
  const db = service.openDb();
  const done = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE state = 'done'");
  await eventually(() => done.get()!.n > 0, 60_000, "the sample save done");
  db.close();

  const fontDir = process.env.FONT_DIR;
  const fontConfig = join(service.dataDir, "fonts.conf");
  if (fontDir) writeFileSync(fontConfig, `<?xml version="1.0"?><fontconfig><include>/etc/fonts/fonts.conf</include><dir>${fontDir}</dir></fontconfig>`);
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    env: { ...process.env, ...(fontDir ? { FONTCONFIG_FILE: fontConfig } : {}) },
  });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, locale: "zh-CN", extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const page = await context.newPage();
  for (const [path, name] of [["/", "status-page"], ["/setup", "setup-page"]] as const) {
    await page.goto(`${service.url}${path}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `${DOCS}/${name}.zh-CN.png`, fullPage: true });
    console.log(`${DOCS}/${name}.zh-CN.png: ${Math.round(Bun.file(`${DOCS}/${name}.zh-CN.png`).size / 1024)} KB`);
  }
  await browser.close();
} finally {
  await service.stop();
  service.cleanup();
}
