/** @jsxImportSource hono/jsx */
/**
 * Each app's whole path from the module to a first save (install, make and trust the certificate, turn on MITM and
 * scripts, connect, open MySekai), and the check the page runs until the first save arrives: it asks
 * `<page>/first-save?since=<when the page was made>` every few seconds (a small JSON answer) and says so.
 */
import { raw } from "hono/html";
import type { ProxyApp } from "../../capture/modules.ts";
import { APP_LABELS } from "../../capture/setup-files.ts";
import type { Messages } from "../../i18n/messages/index.ts";

/** Polls every 3 s for 20 minutes at most; the time is shown in the phone's own clock. */
const CHECK_SCRIPT = `(function(){var el=document.getElementById("first-save");if(!el)return;var url=el.getAttribute("data-url"),done=el.getAttribute("data-arrived"),n=0;
function again(){if(++n<400)setTimeout(tick,3000)}
function tick(){fetch(url,{credentials:"same-origin",cache:"no-store"}).then(function(r){return r.ok?r.json():null}).then(function(j){
if(j&&j.arrived){var t=new Date(j.receivedAt).toLocaleTimeString(document.documentElement.lang,{hour:"2-digit",minute:"2-digit"});el.textContent=done.replace("%1",t);el.setAttribute("data-state","arrived");return}again()}).catch(again)}
setTimeout(tick,1000)})();`;

export interface FirstSaveCheck {
  /** The endpoint the page polls, with its `since`. */
  url: string;
}

export function SetupSteps({ app, t, check }: { app: ProxyApp; t: Messages; check: FirstSaveCheck | null }) {
  const label = APP_LABELS[app];
  const paths = t.appPaths[app];
  return (
    <>
      <h3>{t.stepsTitle}</h3>
      <ol class="steps" id="steps">
        <li>{t.stepInstall(label)}</li>
        <li>
          {t.stepCert(label)} <code translate="no">{paths.cert}</code>
        </li>
        <li>{t.stepTrust}</li>
        <li>
          {t.stepEnable(label)} <code translate="no">{paths.enable}</code>
        </li>
        <li>{t.stepConnect(label)}</li>
        <li>{t.stepOpen}</li>
      </ol>
      {check === null ? null : (
        <>
          <p id="first-save" role="status" data-state="waiting" data-url={check.url} data-arrived={t.firstSaveArrived("%1")}>
            {t.firstSaveWaiting}
          </p>
          <script>{raw(CHECK_SCRIPT)}</script>
        </>
      )}
    </>
  );
}

/** The endpoint's answer: whether a save arrived at or after `since` (ms), and when. */
export function firstSaveAnswer(since: string | undefined, newest: number | null): { arrived: boolean; receivedAt: number | null } {
  const from = Number(since);
  const arrived = newest !== null && Number.isFinite(from) && newest >= from;
  return { arrived, receivedAt: arrived ? newest : null };
}
