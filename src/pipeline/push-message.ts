/**
 * The push message of one save, from its stored outputs model and its archive row. Only the PNG bytes are
 * read from the archive folder: they are images, not data to rebuild.
 */
import { readArchiveBytes } from "../archive/store.ts";
import type { ArchivesRow } from "../store/model/archives.ts";
import type { SaveRow } from "../store/model/saves.ts";
import { mapFileNames, rareText, summaryJson, type SaveOutputs } from "../maps/index.ts";
import { UNKNOWN_PLAYER } from "../save/player-id.ts";
import type { PushMessage } from "../notify/message.ts";
import type { PipelineDeps } from "./stage.ts";

type Archive = ArchivesRow;

type SaveFields = Pick<SaveRow, "id" | "playerId" | "receivedAt">;

export async function pushMessage(deps: PipelineDeps, save: SaveFields, archive: Archive, outputs: SaveOutputs): Promise<PushMessage> {
  const names = new Map<string, string[]>(outputs.sites.map((site) => [`site_${site.siteId}.png`, [site.name]]));
  const allSites = outputs.sites.map((site) => site.name);
  const page = pageUrl(deps, save.playerId);
  page.catch(() => {});
  const images = await Promise.all(
    mapFileNames(outputs).map(async (name) => ({ name, png: await readPng(deps, archive.relPath, name), url: imageUrl(deps, archive, name), sites: names.get(name) ?? allSites })),
  );
  // rare_resources.txt without its first line (the title), so the push and the file say the same.
  const { title, lines, dataTime } = rareText(outputs);
  const summaryText = [...lines.map((line) => line.text), dataTime].join("\n");
  return { playerId: save.playerId, saveId: save.id, capturedAt: new Date(save.receivedAt), title, summaryText, summary: summaryJson(outputs), images, pageUrl: await page };
}

/** Where a tap on a push opens: the player's own page when they have a link, else the owner's page of them. */
async function pageUrl(deps: PipelineDeps, playerId: string): Promise<string | null> {
  const base = deps.config.publicBaseUrl;
  if (base === null || playerId === UNKNOWN_PLAYER) return null;
  const linked = await deps.links.linkedPlayer(playerId);
  return linked?.token ? `${base}/p/${linked.token}` : `${base}/players/${playerId}`;
}

/** A missing map throws: the stage retries, as for any failed read. */
async function readPng(deps: PipelineDeps, relPath: string, name: string): Promise<Uint8Array> {
  const png = await readArchiveBytes(deps.archive, relPath, name);
  if (png === null) throw new Error(`${relPath}/${name} is missing from the archive`);
  return png;
}

function imageUrl(deps: PipelineDeps, archive: Archive, name: string): string | null {
  if (deps.config.publicBaseUrl) return `${deps.config.publicBaseUrl}/maps/${archive.token}/${name}`;
  const base = deps.config.notify.imageBase;
  return base ? `${base}/archive/${archive.relPath}/${name}` : null;
}
