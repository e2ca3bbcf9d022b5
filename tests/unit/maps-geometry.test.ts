import { describe, expect, test } from "bun:test";
import { EDGE_INSET, siteProjection } from "../../src/maps/geometry.ts";

// Expected values computed by hand from the catalogue convention:
// px = 960 + offset_x + dir_x*grid*u - crop_left, py = 540 + offset_z + dir_z*grid*v - crop_top,
// (u, v) = rev_xz ? (z, x) : (x, z).
describe("site geometry", () => {
  test("site 5 (grid 33.333, offset (0,-60), dir (-1,-1), rev_xz, crop left 300)", () => {
    const proj = siteProjection(5, []);
    expect(proj.width).toBe(1280);
    expect(proj.height).toBe(1080);
    const p = proj.project(3, -6); // u = -6, v = 3
    expect(p.x).toBeCloseTo(960 + 33.333 * 6 - 300, 6); // 859.998
    expect(p.y).toBeCloseTo(540 - 60 - 33.333 * 3, 6); // 380.001
    const origin = proj.project(0, 0);
    expect(origin.x).toBeCloseTo(660, 6);
    expect(origin.y).toBeCloseTo(480, 6);
  });

  test("site 6 (grid 20.513, offset (0,80), dir (1,-1), crop left 300)", () => {
    const p = siteProjection(6, []).project(10, 5);
    expect(p.x).toBeCloseTo(865.13, 6);
    expect(p.y).toBeCloseTo(517.435, 6);
  });

  test("site 7 (grid 24.806, offset (-62.015,20.672), dir (-1,-1), rev_xz, crop left 350)", () => {
    const p = siteProjection(7, []).project(2, 4); // u = 4, v = 2
    expect(p.x).toBeCloseTo(960 - 62.015 - 99.224 - 350, 6); // 448.761
    expect(p.y).toBeCloseTo(540 + 20.672 - 49.612, 6); // 511.06
  });

  test("site 8 (grid 21.333, offset (0,-130), dir (1,-1), crop left 200)", () => {
    const p = siteProjection(8, []).project(-5, -10);
    expect(p.x).toBeCloseTo(653.335, 6);
    expect(p.y).toBeCloseTo(623.33, 6);
  });

  test("asset-pack background origin is minus the crop's left/top", () => {
    expect(siteProjection(7, []).imageOrigin).toEqual({ x: -350, y: -0 });
  });

  test("points outside the crop are clamped inside, never lost", () => {
    const proj = siteProjection(5, []);
    expect(proj.projectRaw(100, 0).y).toBeLessThan(0);
    expect(proj.project(100, 0).y).toBe(EDGE_INSET);
    expect(proj.project(-100, 0).y).toBe(1080 - EDGE_INSET);
  });

  test("unknown site fits its points into the canvas, z upwards", () => {
    const positions = [
      { positionX: 0, positionZ: 0 },
      { positionX: 10, positionZ: 10 },
    ];
    const proj = siteProjection(99, positions);
    expect(proj.imageOrigin).toBeNull();
    // span 10 in both axes, usable 1120 x 920 → scale 92, centred on (5, 5).
    expect(proj.project(0, 0)).toEqual({ x: 640 - 460, y: 540 + 460 });
    expect(proj.project(10, 10)).toEqual({ x: 640 + 460, y: 540 - 460 });
  });

  test("unknown site with a single point or none puts it in the centre", () => {
    expect(siteProjection(42, [{ positionX: 3, positionZ: -2 }]).project(3, -2)).toEqual({ x: 640, y: 540 });
    expect(siteProjection(42, []).project(0, 0)).toEqual({ x: 640, y: 540 });
  });
});
