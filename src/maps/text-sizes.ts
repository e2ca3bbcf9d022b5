/**
 * Map text sizes, chosen for a phone: a map is looked at full-width on a 390 CSS px screen, whatever its
 * pixel width (a 1320 px layout drawn 1000 px wide and shown 390 px wide: 390/1320 CSS px per layout px).
 * Rare finds and new songs must read without zooming, common drops at 2× zoom; the measure is the cap height
 * of the bundled font (CJK glyphs stand ~0.92 em, taller than Latin capitals: cap height is the stricter one).
 */

/** The CSS width a phone shows a map at (the common 390 px portrait viewport). */
export const PHONE_WIDTH_CSS = 390;

/** Cap height of Noto Sans CJK SC, both weights (OS/2 sCapHeight 733 of 1000 units). */
export const CAP_HEIGHT_EM = 0.733;

/** Smallest cap height, in CSS px at phone width, of text read without zooming (rare finds, new songs). */
export const READABLE_CAP_CSS = 9;

/** Smallest cap height of text read at 2× zoom (common drops): 2 × 5 = 10 CSS px once zoomed. */
export const ZOOMED_CAP_CSS = 5;

/** Cap height in CSS px of `fontSize` layout px on a map `layoutWidth` px wide shown at phone width. */
export function phoneCapHeight(fontSize: number, layoutWidth: number): number {
  return (fontSize * CAP_HEIGHT_EM * PHONE_WIDTH_CSS) / layoutWidth;
}

/**
 * Font sizes in layout px for maps ~1320 px wide (site maps: the 1280 px crop and margins; the overview: two
 * 640 px panels). At 1320 px: 42 px → 9.1 CSS px cap height, 24 px → 5.2.
 */
export const TEXT_PX = {
  superLabel: 46,
  rareLabel: 42,
  commonLabel: 24,
  /** The rare chips of a site's title bar and the overview's rare list. */
  rareLine: 42,
  siteTitle: 52,
  /** Player, time, drop counts. */
  meta: 28,
  legendHeading: 32,
  legend: 28,
  panelTitle: 40,
  panelTally: 32,
} as const;
