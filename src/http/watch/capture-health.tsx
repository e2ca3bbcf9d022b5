/** @jsxImportSource hono/jsx */
/** The player's page: how their capture is doing, in their language (the region of their newest save, or MAP_LOCALE). */
import { mapLocaleFor } from "../../config/maps.ts";
import type { MapsConfig } from "../../config/maps.ts";
import type { Region } from "../../capture/regions.ts";
import type { CaptureHealth, LatestCapture } from "./health-reads.ts";
import { failureKind, healthStrings } from "./health-strings.ts";

/** The tool that reported: Reqable names its platform, ProxyPin its rule; an upload is a capture module's script. */
function appOf(latest: LatestCapture): string | null {
  const meta = latest.report?.meta ?? {};
  if (meta.platform) return `Reqable (${meta.platform})`;
  if (meta.name || meta.phase) return `ProxyPin${meta.name ? ` (${meta.name})` : ""}`;
  return latest.report ? latest.report.shape : null;
}

/** The player's language: their newest save's server's, else the server's DEFAULT_REGION's (MAP_LOCALE overrides both). */
export const playerLocale = (health: CaptureHealth, maps: Pick<MapsConfig, "locale">, defaultRegion: Region) => mapLocaleFor(maps, health.latest?.region ?? defaultRegion);

export function CaptureHealthSection({ health, maps, defaultRegion }: { health: CaptureHealth; maps: Pick<MapsConfig, "locale" | "timeZone">; defaultRegion: Region }) {
  const locale = playerLocale(health, maps, defaultRegion);
  const S = healthStrings(locale);
  const when = new Intl.DateTimeFormat((locale as string) === "zh" ? "zh-Hans" : locale, { timeZone: maps.timeZone, dateStyle: "medium", timeStyle: "short" });
  const { latest, failure } = health;
  return (
    <section id="capture-health" lang={locale}>
      <h2>{S.heading}</h2>
      {latest === null ? (
        <p>{S.none}</p>
      ) : (
        <dl>
          <dt>{S.lastSave}</dt>
          <dd>
            {`${when.format(latest.receivedAt)} · ${S.source[latest.source]}`}
            {appOf(latest) === null ? null : ` · ${appOf(latest)}`}
          </dd>
          <dt>{S.region}</dt>
          <dd>{latest.region === null ? S.regionUnknown : latest.region.toUpperCase()}</dd>
          <dd>
            {latest.partial === null ? S.state.drawing : latest.partial ? S.state.partial : S.state.full}
            {latest.partial === true ? <p class="err">{S.partialFix}</p> : null}
          </dd>
        </dl>
      )}
      <dl>
        <dt>{S.lastFailure}</dt>
        {failure === null ? (
          <dd>{S.noFailure}</dd>
        ) : (
          <dd>
            {`${when.format(failure.receivedAt)} · ${S.failure[failureKind(failure.reason)]}`}
            <div class="muted err">{failure.reason.slice(0, 160)}</div>
          </dd>
        )}
      </dl>
    </section>
  );
}
