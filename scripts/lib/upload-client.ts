/** Sends a save to a running service the way the capture tool does: one single-chunk POST. */
import { SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";

/** The game URL the capture tool reports in X-Original-Url (the player id is read from it). */
export const saveUrl = (playerId = SAMPLE_PLAYER_ID) =>
  `https://game-api.example/api/user/${playerId}/mysekai?isForceAllReloadOnlyMysekai=True`;

export function uploadSave(baseUrl: string, body: Uint8Array, uploadId: string, playerId = SAMPLE_PLAYER_ID): Promise<Response> {
  return fetch(`${baseUrl}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": saveUrl(playerId) },
  });
}

/** One chunk of a multi-chunk upload (X-Chunk-Index of X-Total-Chunks), as the capture tool sends a large body. */
export function uploadChunk(baseUrl: string, body: Uint8Array, uploadId: string, index: number, total: number, playerId = SAMPLE_PLAYER_ID): Promise<Response> {
  return fetch(`${baseUrl}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": String(index), "X-Total-Chunks": String(total), "X-Original-Url": saveUrl(playerId) },
  });
}
