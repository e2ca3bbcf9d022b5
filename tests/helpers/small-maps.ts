/**
 * For server tests that are not about maps: the same drawing (SVG, outlined text, resvg, PNG) at 200 px wide, about a
 * twentieth of the default 1000 px's pixels. Map, browser, binary and crash tests keep the full size.
 */
export const SMALL_MAPS = { MAP_MAX_WIDTH_PX: "200" } as const;
