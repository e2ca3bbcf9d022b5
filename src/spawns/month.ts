/**
 * A player's month of rare spawns, rendered on demand and cached until their next save: the spots are gathered
 * once per newest save (at most HISTORY_ROWS summary.json read, only those whose digest names a rare find), and
 * each site's PNG drawn once. The cache holds MAX_PLAYERS players; renders share the maps' render slots.
 */
import { readArchiveBytes, type ArchiveStore } from "../archive/store.ts";
import type { Region } from "../capture/regions.ts";
import { mapLocaleFor, timeZoneFor, type MapsConfig } from "../config/maps.ts";
import { siteName } from "../maps/catalog.ts";
import { UI_STRINGS } from "../maps/i18n.ts";
import { renderPng } from "../maps/render.ts";
import type { SummaryJson } from "../maps/summary.ts";
import { spawnSpots, type SpawnSpot } from "./collect.ts";
import { buildSpawnSvg } from "./svg.ts";
import { HISTORY_DAYS, historySince } from "../store/model/pages.ts";
import type { SpawnReads } from "../store/ports/pages.ts";

const MAX_PLAYERS = 32;
/** Wide enough for a phone at 2× and a desktop; the maps are drawn at 1000 px too. */
const MAX_WIDTH = 1000;

interface Entry {
  newestSaveId: number;
  spots: Map<number, SpawnSpot[]>;
  /** By site and region (the image's language and zone). */
  pngs: Map<string, Promise<Uint8Array>>;
}

export interface SpawnMonthOptions {
  reads: SpawnReads;
  archive: ArchiveStore;
  maps: Pick<MapsConfig, "locale" | "timeZone">;
}

export class SpawnMonths {
  private readonly entries = new Map<string, Entry>();
  /** A player's month being gathered: requests that arrive meanwhile share it instead of reading it again. */
  private readonly gathering = new Map<string, Promise<Entry>>();
  constructor(private readonly options: SpawnMonthOptions) {}

  /** The player's spots by site for the 30 days before `now`. */
  async spots(playerId: string, now = Date.now()): Promise<Map<number, SpawnSpot[]>> {
    return (await this.entry(playerId, now)).spots;
  }

  /** A site's image in the language and zone of `region` (the player's server, as their maps), or null when the player has no rare find on it this month. */
  async png(playerId: string, siteId: number, region: Region | null, now = Date.now()): Promise<Uint8Array | null> {
    const entry = await this.entry(playerId, now);
    const spots = entry.spots.get(siteId);
    if (!spots) return null;
    const key = `${siteId}:${region}`;
    let png = entry.pngs.get(key);
    if (!png) {
      png = renderPng(buildSpawnSvg(siteId, spots, this.text(siteId, spots, region)), { maxWidth: MAX_WIDTH });
      entry.pngs.set(key, png);
      png.catch(() => entry.pngs.delete(key));
    }
    return png;
  }

  private text(siteId: number, spots: readonly SpawnSpot[], region: Region | null) {
    const locale = mapLocaleFor(this.options.maps, region);
    const finds = spots.reduce((sum, spot) => sum + spot.finds.length, 0);
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: timeZoneFor(this.options.maps, region), month: "2-digit", day: "2-digit" });
    const { one, other } = UI_STRINGS[locale].spawnSubtitle;
    const subtitle = (spots.length === 1 ? one : other).replace("{days}", String(HISTORY_DAYS)).replace("{finds}", String(finds)).replace("{spots}", String(spots.length));
    return { locale, siteName: siteName(siteId, locale), subtitle, date: (at: number) => day.format(at) };
  }

  private async entry(playerId: string, now: number): Promise<Entry> {
    const since = historySince(now);
    const archives = await this.options.reads.archivesSince(playerId, since);
    const newestSaveId = archives[0]?.saveId ?? 0;
    const cached = this.entries.get(playerId);
    if (cached && cached.newestSaveId === newestSaveId) {
      // Most recently used last: the oldest entry is the one dropped.
      this.entries.delete(playerId);
      this.entries.set(playerId, cached);
      return cached;
    }
    const key = `${playerId}:${newestSaveId}`;
    const pending = this.gathering.get(key);
    if (pending) return pending;
    const gathered = this.gather(archives, since, newestSaveId).finally(() => this.gathering.delete(key));
    this.gathering.set(key, gathered);
    const entry = await gathered;
    this.entries.delete(playerId);
    this.entries.set(playerId, entry);
    if (this.entries.size > MAX_PLAYERS) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private async gather(archives: Awaited<ReturnType<SpawnMonthOptions["reads"]["archivesSince"]>>, since: number, newestSaveId: number): Promise<Entry> {
    const refreshes = await Promise.all(
      archives
        .filter((a) => a.digest === null || (!a.digest.partial && a.digest.rare.length > 0))
        .map(async (a) => ({ receivedAt: a.receivedAt, rareFinds: await this.rareFindsOf(a.relPath) })),
    );
    return { newestSaveId, spots: spawnSpots(refreshes, since), pngs: new Map() };
  }

  /** A summary.json that is gone or unreadable adds nothing (retention, a half-written archive of an old version). */
  private async rareFindsOf(relPath: string): Promise<SummaryJson["rareFinds"]> {
    try {
      const bytes = await readArchiveBytes(this.options.archive, relPath, "summary.json");
      return bytes === null ? [] : ((JSON.parse(new TextDecoder().decode(bytes)) as SummaryJson).rareFinds ?? []);
    } catch {
      return [];
    }
  }
}
