/**
 * Greedy label placement: labels are placed in the order given (most important first), each at the
 * first candidate position around its anchor that overlaps no placed label, no marker and stays
 * inside the bounds. Candidates start next to the marker and move outwards in rings; a label placed
 * away from its marker gets a leader line. When nothing is free, the least-overlapping candidate wins,
 * so a label is never dropped. Markers sit in a grid of cells, so a candidate is checked against the markers
 * near it only: the cost is labels × candidates × (labels + nearby markers), not labels × markers; a label
 * that finds a free candidate stops there (most do, in the first rings).
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelRequest {
  anchorX: number;
  anchorY: number;
  /** Radius of the marker drawn at the anchor; labels start just outside it. */
  markerRadius: number;
  width: number;
  height: number;
}

export interface PlacedLabel {
  box: Box;
  /** true when the label sits away from its marker and needs a leader line. */
  leader: boolean;
}

const GAP = 4;
/**
 * Candidate positions per ring as [dx, dy, slide]: eight directions, right first (reading order), then left,
 * above, below, diagonals; then the four sides again with the label slid half its size along that side (large
 * labels find room in a crowd that a centred box cannot).
 */
const DIRECTIONS: [number, number, number][] = [
  [1, 0, 0], [-1, 0, 0], [0, -1, 0], [0, 1, 0], [1, -1, 0], [-1, -1, 0], [1, 1, 0], [-1, 1, 0],
  [1, 0, -1], [1, 0, 1], [-1, 0, -1], [-1, 0, 1], [0, -1, 1], [0, -1, -1], [0, 1, 1], [0, 1, -1],
];
const RING_STEPS = [0, 20, 45, 75, 110, 150, 200, 260, 330, 410, 500, 600];

function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function candidateBox(req: LabelRequest, dx: number, dy: number, extra: number, slide = 0): Box {
  const reach = req.markerRadius + GAP + extra;
  // Centre the label (then slide it) on the axis it does not move along; push it fully past the marker on the other.
  const x =
    dx > 0 ? req.anchorX + reach : dx < 0 ? req.anchorX - reach - req.width : req.anchorX - (req.width * (1 - slide)) / 2;
  const y =
    dy > 0 ? req.anchorY + reach : dy < 0 ? req.anchorY - reach - req.height : req.anchorY - (req.height * (1 - slide)) / 2;
  return { x, y, w: req.width, h: req.height };
}

function outside(box: Box, bounds: Box): number {
  const overflowX = Math.max(0, bounds.x - box.x) + Math.max(0, box.x + box.w - (bounds.x + bounds.w));
  const overflowY = Math.max(0, bounds.y - box.y) + Math.max(0, box.y + box.h - (bounds.y + bounds.h));
  return overflowX * box.h + overflowY * box.w;
}

const CELL = 64;
/** Numeric cell keys (string keys cost an allocation per lookup); maps are a few thousand pixels wide at most. */
const cellKey = (cx: number, cy: number) => cx * 65_536 + cy;

/** Markers bucketed by the cell of their top-left corner; a query widens its box by the largest marker. */
class MarkerGrid {
  private readonly cells = new Map<number, Box[]>();
  private maxW = 0;
  private maxH = 0;

  constructor(markers: readonly Box[]) {
    for (const m of markers) {
      const key = cellKey(Math.floor(m.x / CELL), Math.floor(m.y / CELL));
      const cell = this.cells.get(key);
      if (cell) cell.push(m);
      else this.cells.set(key, [m]);
      this.maxW = Math.max(this.maxW, m.w);
      this.maxH = Math.max(this.maxH, m.h);
    }
  }

  overlap(box: Box): number {
    let total = 0;
    const x1 = Math.floor((box.x + box.w) / CELL);
    const y1 = Math.floor((box.y + box.h) / CELL);
    for (let cx = Math.floor((box.x - this.maxW) / CELL); cx <= x1; cx++) {
      for (let cy = Math.floor((box.y - this.maxH) / CELL); cy <= y1; cy++) {
        const cell = this.cells.get(cellKey(cx, cy));
        if (cell) for (const marker of cell) total += overlapArea(box, marker);
      }
    }
    return total;
  }
}

export function layoutLabels(requests: readonly LabelRequest[], markers: readonly Box[], bounds: Box): PlacedLabel[] {
  const grid = new MarkerGrid(markers);
  const placed: Box[] = [];
  const result: PlacedLabel[] = [];
  for (const req of requests) {
    let best: { box: Box; cost: number; ring: number } | null = null;
    search: for (let ring = 0; ring < RING_STEPS.length; ring++) {
      const extra = RING_STEPS[ring] ?? 0;
      for (const [dx, dy, slide] of DIRECTIONS) {
        const box = candidateBox(req, dx, dy, extra, slide);
        // Text pushed off the map is lost, text under another label half lost, a marker under a label only dimmed.
        let cost = outside(box, bounds) * 100;
        for (const other of placed) cost += overlapArea(box, other) * 60;
        cost += grid.overlap(box);
        // Farther rings cost a little so that ties prefer labels near their marker.
        const weighted = cost + ring * 0.01;
        if (!best || weighted < best.cost) best = { box, cost: weighted, ring };
        if (cost === 0) break search;
      }
    }
    const chosen = best ?? { box: candidateBox(req, 1, 0, 0), ring: 0 };
    placed.push(chosen.box);
    result.push({ box: chosen.box, leader: chosen.ring > 0 });
  }
  return result;
}

/** The point of a box nearest to (x, y): where a leader line ends. */
export function nearestPointOnBox(box: Box, x: number, y: number): { x: number; y: number } {
  return {
    x: Math.min(Math.max(x, box.x), box.x + box.w),
    y: Math.min(Math.max(y, box.y), box.y + box.h),
  };
}
