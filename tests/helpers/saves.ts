/** Test saves: a random key pair per test file, realistic encrypted saves, and the env that decrypts them. */
import { encode } from "@msgpack/msgpack";
import { encryptAesCbc, makeEncryptedSample, randomKeyPair, type MySekaiSave, type SampleOptions } from "../../src/save/index.ts";

export const PLAYER_ID = "7488393821744390161";
export const saveUrl = (playerId = PLAYER_ID) => `https://game-api.example/api/user/${playerId}/mysekai?isForceAllReloadOnlyMysekai=True`;

export function testKeys() {
  const pair = randomKeyPair();
  return { pair, env: { AES_KEY: pair.keyText, AES_IV: pair.ivText } };
}

let seed = 1;
export function encryptedSave(pair: { key: Uint8Array; iv: Uint8Array }, options: SampleOptions = {}): Uint8Array {
  return makeEncryptedSample(pair, { seed: seed++, ...options });
}

export function uploadSave(baseUrl: string, body: Uint8Array, uploadId: string, playerId = PLAYER_ID): Promise<Response> {
  return fetch(`${baseUrl}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": saveUrl(playerId) },
  });
}

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
