/**
 * Clusters of one kind of common material: spots showing that kind's mark within REACH of each other (single
 * linkage). A cluster of several spots gets one small count beside it (its kind's mark and "×N", N the
 * quantity of that kind on its spots): where the legend says how much a site holds, the count says how much
 * lies in each patch, without a label per spot.
 */
import type { Box } from "./label-layout.ts";
import type { SpotLayout } from "./map-layout.ts";

/** Layout px between the centres of two spots of one cluster: a patch of flowers, a stand of trees. */
const REACH = 70;
/** Spots a cluster needs to get a count (fewer: the marks are counted at a glance). */
const MIN_SPOTS = 3;

export interface KindCluster {
  kind: string;
  total: number;
  /** Around the centres of the cluster's spots. */
  extent: Box;
}

export function kindClusters(spots: readonly SpotLayout[], symbolScale: number): KindCluster[] {
  const reach = REACH * symbolScale;
  const byKind = new Map<string, SpotLayout[]>();
  for (const sp of spots) {
    for (const m of sp.marks) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), sp]);
  }
  const clusters: KindCluster[] = [];
  for (const [kind, members] of byKind) {
    const seen = new Set<SpotLayout>();
    for (const start of members) {
      if (seen.has(start)) continue;
      const group = [start];
      seen.add(start);
      for (let i = 0; i < group.length; i++) {
        const a = group[i]!;
        for (const b of members) {
          if (!seen.has(b) && Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y) <= reach) {
            seen.add(b);
            group.push(b);
          }
        }
      }
      if (group.length < MIN_SPOTS) continue;
      const ofKind = (sp: SpotLayout) => sp.spot.items.filter((i) => !i.harvested && i.resource.emphasis === "common" && i.resource.kind === kind);
      const total = group.reduce((n, sp) => n + ofKind(sp).reduce((q, i) => q + i.quantity, 0), 0);
      if (total === 0) continue; // a harvested patch drawn faded
      const xs = group.map((sp) => sp.at.x);
      const ys = group.map((sp) => sp.at.y);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      clusters.push({ kind, total, extent: { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y } });
    }
  }
  // Largest first: when room runs out, the big patches keep their counts.
  return clusters.sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind));
}
