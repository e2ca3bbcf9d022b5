/** Small deterministic helpers for building SVG text. */
import { clipText } from "./limits.ts";

export const FONT_FAMILY = "Noto Sans CJK SC";

/** Code points XML 1.0 forbids (NUL, most C0 controls, lone surrogates, U+FFFE/FFFF): one in the SVG makes it unparsable. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text escaped for SVG; characters XML 1.0 forbids are dropped (a save's text is attacker-controlled). */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Fixed one-decimal numbers: stable across runs and short. */
export function n(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    code >= 0x20000
  );
}

/** Estimated advance width: CJK full width, narrow ASCII letters, wider capitals and symbols. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (isWide(code)) em += 1;
    else if (ch === " ") em += 0.27;
    else if (/[iljtf.,:;'|!]/.test(ch)) em += 0.3;
    else if (/[×★◆●]/.test(ch)) em += 1; // full width in the CJK font
    else if (/[A-Z#]/.test(ch)) em += 0.66;
    else if (/[mwMW]/.test(ch)) em += 0.85;
    else if (code < 0x80) em += 0.56;
    else em += 0.9;
  }
  return em * fontSize * (bold ? 1.05 : 1);
}

/** The label cut (with "…") to fit `width`; one pass over at most MAP_LIMITS.textChars characters. */
export function truncateToWidth(label: string, width: number, size: number, bold: boolean): string {
  const clipped = clipText(label);
  if (textWidth(clipped, size, bold) <= width) return clipped;
  const room = width - textWidth("…", size, bold);
  let kept = "";
  let used = 0;
  for (const ch of clipped) {
    used += textWidth(ch, size, bold);
    if (used > room && kept !== "") break;
    kept += ch;
  }
  return `${kept}…`;
}

export function text(
  x: number,
  y: number,
  content: string,
  attrs: { size: number; fill: string; bold?: boolean; anchor?: "start" | "middle" | "end"; opacity?: number },
): string {
  const weight = attrs.bold ? ` font-weight="bold"` : "";
  const anchor = attrs.anchor && attrs.anchor !== "start" ? ` text-anchor="${attrs.anchor}"` : "";
  const opacity = attrs.opacity !== undefined ? ` opacity="${attrs.opacity}"` : "";
  return `<text x="${n(x)}" y="${n(y)}" font-size="${attrs.size}" fill="${attrs.fill}"${weight}${anchor}${opacity}>${escapeXml(content)}</text>`;
}

export function svgDocument(width: number, height: number, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}
