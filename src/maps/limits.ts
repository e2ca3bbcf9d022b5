/**
 * Caps on what one map draws, so that drawing stays bounded whatever the save holds. Real sites have 30–100
 * spots (each a label block of 1–6 lines with MAP_COMMON_LABELS=all; by default only the handful of finds are
 * labelled), 10–25 resources in the legend and a handful of rare lines; text is a catalogue name or `<type> #<id>`.
 */
export const MAP_LIMITS = {
  /** Label blocks laid out per site map, most important first; the other spots keep their marks, finds past it are listed. */
  labelsPerMap: 100,
  /** The same for each small panel of the overview (rare drops only; real sites have a handful). */
  labelsPerPanel: 24,
  /** Labels listed under a site map for want of a free place on it; then one "+N". */
  unplacedEntries: 40,
  /** Lines of one label block; the rest are counted on a last "+N" line. */
  linesPerLabel: 8,
  /** Legend entries per site map; the last slot says how many more there are. */
  legendEntries: 45,
  /** Chips in a site map's title bar, wrapped over as many rows as they need; past it, a last "+N" chip. */
  headerChips: 24,
  /** Rare lines in rare_resources.txt and under the overview; then one "+N" line. */
  rareLines: 30,
  /** Characters of any one text before it is measured or drawn (longer: cut with "…"). */
  textChars: 100,
} as const;

/** The text cut to MAP_LIMITS.textChars code points, with "…" when cut. */
export function clipText(text: string): string {
  const max = MAP_LIMITS.textChars;
  if (text.length <= max) return text;
  // A code point is at most two UTF-16 units: this prefix holds more than `max` points unless it is the whole text.
  const points = Array.from(text.slice(0, 2 * max + 2));
  return points.length <= max ? text : `${points.slice(0, max).join("")}…`;
}

/**
 * Maps are drawn no wider than a phone screen (the layouts are ~1320 px wide, so they are scaled by ~0.76).
 * Was 1080 px (most phones' width); the text sized for a phone (text-sizes.ts) costs ~35 ms more render CPU a
 * save, which 1000 px gives back (0.86× the pixels), its smallest text, 24 px common labels, still ~18 px.
 * More pixels only cost render and encode time and memory (pixels scale with the square of the width).
 */
export const MAP_MAX_WIDTH_PX = 1000;

/** The smallest text a map may show once scaled to MAP_MAX_WIDTH_PX. */
export const MAP_MIN_TEXT_PX = 12;
