import { describe, expect, test } from "bun:test";
import { renderAsync } from "@resvg/resvg-js";
import { inflateSync } from "node:zlib";
import { encodeOpaquePng } from "../../src/maps/png.ts";

/** Decodes an 8-bit RGB, non-interlaced PNG whose rows all use filter 0, checking every chunk's CRC. */
function decodeRgbPng(png: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const types: string[] = [];
  let width = 0;
  let height = 0;
  let idat: Uint8Array = new Uint8Array(0);
  for (let offset = 8; offset < png.length; ) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8));
    expect(view.getUint32(offset + 8 + length)).toBe(Bun.hash.crc32(png.subarray(offset + 4, offset + 8 + length)));
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      expect([...data.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    }
    if (type === "IDAT") idat = data;
    types.push(type);
    offset += 12 + length;
  }
  expect(types).toEqual(["IHDR", "IDAT", "IEND"]);
  const raw = inflateSync(idat);
  expect(raw.length).toBe(height * (1 + width * 3));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (1 + width * 3)]).toBe(0);
    rgb.set(raw.subarray(y * (1 + width * 3) + 1, (y + 1) * (1 + width * 3)), y * width * 3);
  }
  return { width, height, rgb };
}

function dropAlpha(rgba: Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) rgb.set(rgba.subarray(i, i + 3), j);
  return rgb;
}

describe("encodeOpaquePng", () => {
  test("the CRC-32 Bun.hash.crc32 computes is PNG's (IEEE): IEND's well-known CRC", () => {
    expect(Bun.hash.crc32(new TextEncoder().encode("IEND"))).toBe(0xae426082);
  });

  // Widths 4k+0..3 cover the 4-pixel fast path and every tail length; anti-aliased edges give many colours.
  for (const width of [1, 2, 3, 4, 5, 7, 64, 131]) {
    test(`decodes to exactly resvg's pixels (width ${width})`, async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="9"><rect width="${width}" height="9" fill="#123456"/><circle cx="${width / 2}" cy="4.5" r="${width / 3}" fill="#f0a020" opacity="0.7"/></svg>`;
      const image = await renderAsync(svg, { background: "#ffffff" });
      const decoded = decodeRgbPng(encodeOpaquePng(image.pixels, image.width, image.height));
      expect({ width: decoded.width, height: decoded.height }).toEqual({ width, height: 9 });
      expect(Buffer.from(decoded.rgb).equals(Buffer.from(dropAlpha(image.pixels)))).toBe(true);
    });
  }

  test("reads pixels that start at an unaligned offset", () => {
    const backing = new Uint8Array(1 + 3 * 2 * 4);
    const rgba = backing.subarray(1);
    rgba.set([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255]);
    expect([...decodeRgbPng(encodeOpaquePng(rgba, 3, 2)).rgb]).toEqual([...dropAlpha(rgba)]);
  });

  test("rejects a pixel buffer that does not match the size", () => {
    expect(() => encodeOpaquePng(new Uint8Array(12), 2, 2)).toThrow("expected 2×2 RGBA pixels");
  });
});
