/**
 * What an archive's names look like, on disk and in a bucket alike: by-id/<playerId>/<UTC YYYYmmdd_HHMMSS>[_N]/
 * <file>, and the marker file that says which save a folder holds.
 */

import { UNKNOWN_PLAYER } from "../save/player-id.ts";

/** Marks which save a folder holds, so a stage that runs again finds its folder instead of making a second one. */
export const MARKER = ".save-id";
export const SAFE_PLAYER = /^(\d{1,32}|unknown)$/;
export const SAFE_FILE = /^[A-Za-z0-9_.-]{1,64}$/;

export function archiveStamp(receivedAt: number): string {
  const iso = new Date(receivedAt).toISOString(); // 2026-11-23T06:15:00.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/**
 * The two folders a save may take in a bucket: its stamp's, when it holds that stamp's claim (the first save of the
 * player in that second), else one named by its id too, which no other save can take. A save with no player id
 * yet always takes its own: every such save shares `unknown`.
 */
export function stampFolders(save: { playerId: string; saveId: number; receivedAt: number }): { stamp: string | null; own: string } {
  const stamp = `by-id/${save.playerId}/${archiveStamp(save.receivedAt)}`;
  return { stamp: save.playerId === UNKNOWN_PLAYER ? null : stamp, own: `${stamp}_${save.saveId}` };
}

export function checkFileName(name: string): void {
  if (!SAFE_FILE.test(name) || name === MARKER) throw new Error(`bad archive file name ${name}`);
}

export function checkPlayerId(playerId: string): void {
  if (!SAFE_PLAYER.test(playerId)) throw new Error("player id is not digits or unknown");
}
