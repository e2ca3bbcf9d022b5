/**
 * Regenerates assets/fonts/NotoSansCJKsc-{Regular,Bold}-subset.otf: Noto Sans CJK SC cut down to the
 * characters the maps can draw (catalogue names in ja/en/zh/zh-Hant/ko, song titles of the five servers, UI strings,
 * ASCII). The SC face holds the Hangul and traditional characters too (every Noto Sans CJK face covers them all).
 *
 * Needs the Debian packages fonts-noto-cjk and python3-fonttools:
 *   apt-get install -y fonts-noto-cjk python3-fonttools
 *   bun run scripts/subset-font.ts            # PYTHON=/usr/bin/python3 and NOTO_DIR=... to override
 * Run it again whenever the catalogue, the song titles or the UI strings gain characters (a test checks coverage).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { subsetCharacters } from "../src/maps/font-coverage.ts";

const python = process.env.PYTHON ?? "/usr/bin/python3";
const notoDir = process.env.NOTO_DIR ?? "/usr/share/fonts/opentype/noto";
/** Face 2 of the NotoSansCJK .ttc collections is Noto Sans CJK SC (kana included). */
const FONT_NUMBER = "2";
const outDir = fileURLToPath(new URL("../assets/fonts/", import.meta.url));

const work = mkdtempSync(join(tmpdir(), "subset-font-"));
try {
  const textFile = join(work, "chars.txt");
  const chars = subsetCharacters();
  writeFileSync(textFile, chars);
  for (const weight of ["Regular", "Bold"]) {
    const output = join(outDir, `NotoSansCJKsc-${weight}-subset.otf`);
    const result = Bun.spawnSync([
      python,
      "-m",
      "fontTools.subset",
      join(notoDir, `NotoSansCJK-${weight}.ttc`),
      `--font-number=${FONT_NUMBER}`,
      `--text-file=${textFile}`,
      `--output-file=${output}`,
      "--no-hinting",
      "--notdef-outline",
      "--layout-features=kern",
    ]);
    if (result.exitCode !== 0) {
      throw new Error(`pyftsubset failed for ${weight}: ${result.stderr.toString()}`);
    }
    console.log(`${output}: ${chars.length} characters, ${statSync(output).size} bytes`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
