/** @jsxImportSource hono/jsx */
/** The player's page: how their capture is doing, in the page's language; times in the save's region's zone. */
import type { Messages } from "../../i18n/messages/index.ts";
import type { PageLang } from "../page-lang.ts";
import { Time } from "../status/layout.tsx";
import { captureFailureKind, type CaptureFailureKind } from "../../failure-kind.ts";
import type { CaptureHealth, LatestCapture } from "../../store/model/pages.ts";
import { stillUnknown } from "../../maps/catalog.ts";

/** The tool that reported: Reqable names its platform, ProxyPin its rule; an upload is a capture module's script. */
function appOf(latest: LatestCapture): string | null {
  const meta = latest.report?.meta ?? {};
  if (meta.platform) return `Reqable (${meta.platform})`;
  if (meta.name || meta.phase) return `ProxyPin${meta.name ? ` (${meta.name})` : ""}`;
  return latest.report ? latest.report.shape : null;
}

const FAILURE_TEXT: Record<CaptureFailureKind, (t: Messages) => string> = {
  wrongKey: (t) => t.healthWrongKey,
  junk: (t) => t.healthJunk,
  harvest: (t) => t.healthHarvest,
  other: (t) => t.healthOther,
};

export function CaptureHealthSection({ health, lang }: { health: CaptureHealth; lang: PageLang }) {
  const { t } = lang;
  const { latest, failure } = health;
  const app = latest === null ? null : appOf(latest);
  const unknown = latest === null ? 0 : stillUnknown(latest.unknown).length;
  return (
    <section id="capture-health">
      <h2>{t.healthHeading}</h2>
      {latest === null ? (
        <p>{t.healthNone}</p>
      ) : (
        <dl>
          <dt>{t.healthLastSave}</dt>
          <dd>
            <Time ms={latest.receivedAt} zone={lang.zoneOf(latest.region)} />
            {` · ${latest.source === "upload" ? t.healthUpload : t.healthReport}`}
            {app === null ? null : (
              <>
                {" · "}
                <span translate="no">{app}</span>
              </>
            )}
          </dd>
          <dt>{t.healthServer}</dt>
          <dd>{latest.region === null ? t.healthServerUnknown : latest.region.toUpperCase()}</dd>
          <dd>
            {latest.partial === null ? t.healthDrawing : latest.partial ? t.healthPartial : t.healthFull}
            {latest.partial === true ? <p class="err">{t.healthPartialFix}</p> : null}
          </dd>
          {unknown > 0 ? (
            <dd class="err" id="unknown-resources">
              {t.unknownResources(unknown)}
            </dd>
          ) : null}
        </dl>
      )}
      <dl>
        <dt>{t.healthLastFailure}</dt>
        {failure === null ? (
          <dd>{t.healthNoFailure}</dd>
        ) : (
          <dd>
            <Time ms={failure.receivedAt} zone={lang.zoneOf(failure.region)} />
            {` · ${FAILURE_TEXT[captureFailureKind(failure.reason)](t)}`}
            {/* The save's own fault (its key, its bytes, its records) helps the player; any other error is the service's, for the owner's page. */}
            {captureFailureKind(failure.reason) === "other" ? null : (
              <div class="muted err" translate="no">
                {failure.reason.slice(0, 160)}
              </div>
            )}
          </dd>
        )}
      </dl>
    </section>
  );
}
