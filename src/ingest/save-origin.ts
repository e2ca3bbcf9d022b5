/**
 * A save's origin (src/store/model/saves.ts), decided here once where a save arrives: the upload route for a chunk,
 * evaluate for a report's candidate. The stores store it as they are given it.
 */
import { dataTypeOfUrl } from "../capture/data-types.ts";
import { regionOfUrl } from "../capture/regions.ts";
import type { SaveOrigin } from "../store/model/saves.ts";

/** `captureUrl`: the game's URL the capture tool took the save from (an upload's X-Original-Url, a report entry's URL). */
export function saveOrigin(captureUrl: string | null | undefined): SaveOrigin {
  return { region: regionOfUrl(captureUrl), dataType: dataTypeOfUrl(captureUrl) };
}
