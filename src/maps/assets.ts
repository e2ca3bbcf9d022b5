/**
 * Optional asset pack (the project ships no game art): `<dir>/sites/<siteId>.png` is a 1920x1080 site
 * image drawn under the points, `<dir>/icons/<type>_<id>.png` replaces a resource's vector marker.
 * Only PNG is used: resvg does not decode WebP, so a resource with only a `.webp` icon keeps its
 * vector marker. Missing files are simply absent; nothing here throws for a missing pack entry.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MySekaiSave } from "../save/model.ts";
import { resourceKey } from "../save/model.ts";
import type { AssetImages } from "./svg-map-layer.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

async function pngDataUri(path: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch {
    return null;
  }
  if (!isPng(bytes)) return null;
  return `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
}

/** Loads the pack entries the save needs: one background per site, one icon per (type, id) present. */
export async function loadAssetPack(assetsDir: string, save: MySekaiSave): Promise<AssetImages> {
  const siteBackgrounds = new Map<number, string>();
  const icons = new Map<string, string>();
  const siteIds = [...new Set(save.sites.map((s) => s.siteId))];
  const resources = new Map<string, { type: string; id: number }>();
  for (const site of save.sites) {
    for (const d of site.drops) resources.set(resourceKey(d.resourceType, d.resourceId), { type: d.resourceType, id: d.resourceId });
  }
  await Promise.all([
    ...siteIds.map(async (id) => {
      const uri = await pngDataUri(join(assetsDir, "sites", `${id}.png`));
      if (uri) siteBackgrounds.set(id, uri);
    }),
    ...[...resources].map(async ([key, r]) => {
      // Type and id come from the save; keep them to a safe file-name alphabet.
      if (!/^[a-z0-9_]+$/i.test(r.type)) return;
      const uri = await pngDataUri(join(assetsDir, "icons", `${r.type}_${r.id}.png`));
      if (uri) icons.set(key, uri);
    }),
  ]);
  return { siteBackgrounds, icons };
}
