/** @jsxImportSource hono/jsx */
/** The catalogue this process draws with, per server: the built-in's master data, or the owner's update (its source, version, when). */
import { builtInCatalogue, ownerCatalogue } from "../../catalogue/loaded.ts";
import type { PageLang } from "../page-lang.ts";
import { Section, Time } from "./layout.tsx";

export function CatalogueSection({ lang: { t, zone } }: { lang: PageLang }) {
  const owner = ownerCatalogue();
  const rows = builtInCatalogue().catalog.masterData.map((builtIn) => ({ builtIn, updated: owner?.catalog.masterData.find((m) => m.region === builtIn.region) }));
  return (
    <Section title={t.catalogue}>
      <p class="muted">{t.catalogueHint} <code translate="no">npm run cli -- catalogue update --fetch</code></p>
      <div class="scroll">
        <table class="catalogue">
          <tr><th>{t.headServer}</th><th>{t.headCatalogueSource}</th><th>{t.headDataVersion}</th><th>{t.headUpdatedAt}</th></tr>
          {rows.map(({ builtIn, updated }) => (
            <tr>
              <td translate="no">{builtIn.region.toUpperCase()}</td>
              <td>{updated ? <>{t.catalogueUpdated} <code translate="no">{updated.repo}</code></> : t.catalogueBuiltIn}</td>
              <td translate="no">{(updated ?? builtIn).dataVersion}</td>
              <td>{updated?.updatedAt ? <Time ms={Date.parse(updated.updatedAt)} zone={zone} /> : "–"}</td>
            </tr>
          ))}
        </table>
      </div>
      {owner ? <p class="muted">{t.catalogueAdds(owner.catalog.resources.length, Object.keys(owner.music.titles).length)}</p> : null}
    </Section>
  );
}
