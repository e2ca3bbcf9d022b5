/**
 * A save's origin is decided once where it arrives (src/ingest/save-origin.ts), from the capture URL: the region
 * by the game host, the data type by the path; the stores keep what they are given (ingest-store.chunks.contract).
 */
import { expect, test } from "bun:test";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import { saveOrigin } from "../../src/ingest/save-origin.ts";
import { NO_ORIGIN } from "../../src/store/model/saves.ts";

const PLAYER = "7485938820123456789";
const host = (region: keyof typeof REGION_HOSTS) => REGION_HOSTS[region][0];

test("the game host names the region, the path the data type", () => {
  expect(saveOrigin(`https://${host("cn")}/api/user/${PLAYER}/mysekai?isForceAllReloadOnlyMysekai=True`)).toEqual({ region: "cn", dataType: "mysekai" });
  expect(saveOrigin(`https://${host("tw")}/api/user/${PLAYER}/mysekai/birthday-party/41/delivery`)).toEqual({ region: "tw", dataType: "mysekai_birthday_party" });
});

test("a URL of no known host, no URL, or no URL at all is the save of no region", () => {
  expect(saveOrigin(`https://mysekai.example/api/user/${PLAYER}/mysekai/birthday-party/41/delivery`)).toEqual({ region: null, dataType: "mysekai_birthday_party" });
  for (const url of [null, undefined, "", "not a url"]) expect(saveOrigin(url)).toEqual(NO_ORIGIN);
});
