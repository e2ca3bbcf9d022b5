/** The bundled fonts: Noto Sans CJK SC subsets (regular, bold) covering every string the maps draw. */
import { projectPath } from "../runtime-files.ts";

const FONT_NAMES = ["NotoSansCJKsc-Regular-subset.otf", "NotoSansCJKsc-Bold-subset.otf"];

/** Regular first, then bold. */
export function fontFiles(): string[] {
  return FONT_NAMES.map((name) => projectPath(`assets/fonts/${name}`));
}
