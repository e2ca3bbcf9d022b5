/** Test saves: the sample player, a random key pair per test file, fresh encrypted saves, the upload POST, hostile raw saves. */
import { encode } from "@msgpack/msgpack";
import { encryptAesCbc, type MySekaiSave } from "../../src/save/index.ts";

export {
  SAMPLE_PLAYER_ID as PLAYER_ID,
  makeFreshEncryptedSample as encryptedSave,
  randomKeys as testKeys,
} from "../../src/samples/index.ts";
export { saveUrl, uploadSave } from "../../scripts/lib/upload-client.ts";

/** A raw (pre-MessagePack) save from a typed one, optional fields left out: what a hostile client encrypts with the public key. */
export function rawSave(typed: MySekaiSave, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    updatedResources: {
      now: typed.now,
      userMysekaiHarvestMaps: typed.sites.map((site) => ({
        mysekaiSiteId: site.siteId,
        userMysekaiSiteHarvestFixtures: site.fixtures.map((f) => ({
          mysekaiSiteHarvestFixtureId: f.fixtureId,
          positionX: f.positionX,
          positionZ: f.positionZ,
          userMysekaiSiteHarvestFixtureStatus: f.harvested ? "harvested" : "spawned",
        })),
        userMysekaiSiteHarvestResourceDrops: site.drops.map((d) => ({
          resourceType: d.resourceType,
          resourceId: d.resourceId,
          positionX: d.positionX,
          positionZ: d.positionZ,
          ...(d.quantity !== 1 && { quantity: d.quantity }),
          mysekaiSiteHarvestResourceDropStatus: d.status,
        })),
      })),
      userMysekaiMusicRecords: typed.ownedMusicRecordIds.map((mysekaiMusicRecordId) => ({ mysekaiMusicRecordId })),
      ...extra,
    },
  };
}

export function encryptRaw(pair: { key: Uint8Array; iv: Uint8Array }, raw: unknown): Uint8Array {
  return encryptAesCbc(encode(raw), pair.key, pair.iv);
}
