/** @jsxImportSource hono/jsx */
/**
 * A player's birthday party progress, from the newest refresh in their history whose body carried
 * `userBirthdayParties`: per party, the materials obtained (`obtainedMysekaiMaterialCount`) against the largest
 * requirement of the master data's delivery rewards, as the largest hub's renderer shows a party's level. A party
 * the catalogue does not know is shown by its id, and its count alone. Nothing is shown without such a body.
 */
import { catalogParty, pickName } from "../../maps/catalog.ts";
import type { PastRefresh } from "../../store/model/pages.ts";
import type { PageLang } from "../page-lang.ts";
import { Section, Time } from "./layout.tsx";

const CSS = `.party-progress{list-style:none;margin:0;padding:0}.party-progress li{padding:4px 0}
.party-progress progress{display:block;width:100%;max-width:24em;height:10px}`;

function partyName(partyId: number, { t, locale }: PageLang): string {
  const party = catalogParty(partyId);
  const character = party?.character === undefined ? null : pickName(party.character, locale);
  return character === null ? t.partyN(partyId) : party?.year === undefined ? character : `${character} ${party.year}`;
}

const targetOf = (partyId: number) => {
  const rewards = catalogParty(partyId)?.deliveryTotalRewards ?? [];
  return rewards.length === 0 ? null : Math.max(...rewards);
};

export function PartyProgressSection({ refreshes, lang }: { refreshes: PastRefresh[]; lang: PageLang }) {
  const latest = refreshes.find((refresh) => (refresh.digest?.parties?.length ?? 0) > 0);
  if (latest === undefined) return null;
  return (
    <Section title={lang.t.partyProgress}>
      <style>{CSS}</style>
      <ul class="party-progress" id="party-progress">
        {latest.digest!.parties!.map(({ partyId, obtained }) => {
          const target = targetOf(partyId);
          return (
            <li data-party={partyId}>
              <strong>{partyName(partyId, lang)}</strong> {lang.t.partyMaterials(obtained, target)}
              {target === null ? null : <progress max={target} value={Math.min(obtained, target)} />}
            </li>
          );
        })}
      </ul>
      <p class="muted">
        {lang.t.partyAsOf} <Time ms={latest.receivedAt} zone={lang.zoneOf(latest.region)} />
      </p>
    </Section>
  );
}
