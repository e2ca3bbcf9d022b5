/**
 * Greedy label placement: labels are placed in the order given (most important first), each at the first
 * candidate position around its anchor that breaks no rule and covers the fewest common markers. The rules, never
 * broken: a label stays inside the bounds, overlaps no placed label and no kept-clear box (rare markers), and its
 * leader line (drawn when it sits away from its marker) crosses no placed label and no placed leader, nor does
 * the label lie across a placed leader. A label with no such candidate is not placed (null): the caller lists it
 * beside the map. Candidates start next to the marker and move outwards in rings. Markers sit in a grid of cells,
 * so a candidate is checked against the markers near it only; a label that finds a free candidate stops there.
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
  /** A wider anchor (a cluster of spots): half its size on each axis, instead of markerRadius. */
  halfSize?: { x: number; y: number };
  width: number;
  height: number;
  /**
   * A cluster's count: placed beside its anchor or not at all (first rings only, never with a leader line), and
   * on no marker, since it stands for the marks it would hide.
   */
  count?: boolean;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface PlacedLabel {
  box: Box;
  /** From the anchor to the nearest point of the box, when the label sits away from its marker; else null. */
  leader: Segment | null;
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
/** A cluster's count looks only this many rings out: farther, it would read as another patch's. */
const COUNT_RINGS = 2;

function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function candidateBox(req: LabelRequest, dx: number, dy: number, extra: number, slide = 0): Box {
  const reachX = (req.halfSize?.x ?? req.markerRadius) + GAP + extra;
  const reachY = (req.halfSize?.y ?? req.markerRadius) + GAP + extra;
  // Centre the label (then slide it) on the axis it does not move along; push it fully past the marker on the other.
  const x =
    dx > 0 ? req.anchorX + reachX : dx < 0 ? req.anchorX - reachX - req.width : req.anchorX - (req.width * (1 - slide)) / 2;
  const y =
    dy > 0 ? req.anchorY + reachY : dy < 0 ? req.anchorY - reachY - req.height : req.anchorY - (req.height * (1 - slide)) / 2;
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

/** Boxes touching along an edge do not overlap: only a shared area counts. */
const EDGE = 0.5;

/** Whether the segment passes through the inside of the box (Liang–Barsky clipping against the box shrunk by EDGE). */
export function segmentCrossesBox(s: Segment, b: Box): boolean {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, s.x1 - (b.x + EDGE)],
    [dx, b.x + b.w - EDGE - s.x1],
    [-dy, s.y1 - (b.y + EDGE)],
    [dy, b.y + b.h - EDGE - s.y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

/** Whether two segments cross at a point inside both (segments that only touch, e.g. leaders from one spot, do not). */
export function segmentsCross(a: Segment, b: Segment): boolean {
  const d1 = cross(b.x1, b.y1, b.x2, b.y2, a.x1, a.y1);
  const d2 = cross(b.x1, b.y1, b.x2, b.y2, a.x2, a.y2);
  const d3 = cross(a.x1, a.y1, a.x2, a.y2, b.x1, b.y1);
  const d4 = cross(a.x1, a.y1, a.x2, a.y2, b.x2, b.y2);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function breaksRules(box: Box, leader: Segment | null, bounds: Box, placed: readonly PlacedLabel[], keepClear: MarkerGrid): boolean {
  if (outside(box, bounds) > 0 || keepClear.overlap(box) > 0) return true;
  for (const other of placed) {
    if (overlapArea(box, other.box) > 0) return true;
    if (other.leader && segmentCrossesBox(other.leader, box)) return true;
    if (leader && (segmentCrossesBox(leader, other.box) || (other.leader && segmentsCross(leader, other.leader)))) return true;
  }
  return false;
}

/** `placedBefore`: labels of an earlier pass, kept to by the same rules (their boxes and leaders). */
export function layoutLabels(
  requests: readonly LabelRequest[],
  markers: readonly Box[],
  keepClear: readonly Box[],
  bounds: Box,
  placedBefore: readonly PlacedLabel[] = [],
): (PlacedLabel | null)[] {
  const grid = new MarkerGrid(markers);
  const clear = new MarkerGrid(keepClear);
  const placed: PlacedLabel[] = [...placedBefore];
  const result: (PlacedLabel | null)[] = [];
  for (const req of requests) {
    let best: { label: PlacedLabel; cost: number } | null = null;
    const rings = req.count ? COUNT_RINGS : RING_STEPS.length;
    search: for (let ring = 0; ring < rings; ring++) {
      const extra = RING_STEPS[ring] ?? 0;
      for (const [dx, dy, slide] of DIRECTIONS) {
        const box = candidateBox(req, dx, dy, extra, slide);
        const end = ring > 0 && !req.count ? nearestPointOnBox(box, req.anchorX, req.anchorY) : null;
        const leader = end ? { x1: req.anchorX, y1: req.anchorY, x2: end.x, y2: end.y } : null;
        if (breaksRules(box, leader, bounds, placed, clear)) continue;
        // A common marker under a label is only dimmed; farther rings cost a little so ties stay near the marker.
        const cost = grid.overlap(box);
        if (req.count && cost > 0) continue;
        if (!best || cost + ring * 0.01 < best.cost) best = { label: { box, leader }, cost: cost + ring * 0.01 };
        if (cost === 0) break search;
      }
    }
    if (best) placed.push(best.label);
    result.push(best?.label ?? null);
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
