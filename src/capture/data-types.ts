/**
 * What a captured game answer is, told by its URL (the hub's data types, Haruki-Toolbox-Backend's names):
 * - `mysekai`: the player's MySekai save, `/api/user/<id>/mysekai?…`
 * - `mysekai_birthday_party`: a birthday party's delivery, `/api/user/<id>/mysekai/birthday-party/<partyId>/delivery`,
 *   whose body carries only the party site's harvest maps. Kept apart from the save: never the save a bot reads.
 * An answer without a URL is taken as the save (the contract's uploads may name none).
 */
export const DATA_TYPES = ["mysekai", "mysekai_birthday_party"] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** The path of a birthday party's delivery; `[^/?#]+` keeps the party id one segment. */
export const BIRTHDAY_PARTY_PATH = /\/api\/user\/\d+\/mysekai\/birthday-party\/[^/?#]+\/delivery(?:[?#]|$)/i;

export function dataTypeOfUrl(url: string | null | undefined): DataType {
  if (!url) return "mysekai";
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return "mysekai";
  }
  return BIRTHDAY_PARTY_PATH.test(path) ? "mysekai_birthday_party" : "mysekai";
}
