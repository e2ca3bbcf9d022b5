/** A save uploaded as the capture module sends it from a region's game host, and its job waited for. */
import { expect } from "bun:test";
import { eventually, type RunningServer } from "./in-process.ts";
import { reads } from "./store-reads.ts";

/** One game API host per region the tests upload from (src/capture/regions.ts has them all). */
export const GAME_HOSTS = {
  jp: "production-game-api.sekai.colorfulpalette.org",
  en: "n-production-game-api.sekai-en.com",
  cn: "mkcn-prod-public-60001-1.dailygn.com",
} as const;

/** Uploads `body` for `playerId` from `region`'s host (200 expected) and waits until its job is done or failed; the save's id. */
export async function uploadFinished(server: RunningServer, playerId: string, region: keyof typeof GAME_HOSTS, body: Uint8Array): Promise<number> {
  const uploadId = crypto.randomUUID();
  const response = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${GAME_HOSTS[region]}/api/user/${playerId}/mysekai?isForceAllReloadOnlyMysekai=True` },
  });
  expect(response.status).toBe(200);
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await eventually(async () => ["done", "failed"].includes((await reads(server).job(id))?.state ?? ""), 30_000, `save ${id} finished`);
  return id;
}
