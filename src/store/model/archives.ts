/** A save's archive (`archives`) and the bucket folder claims (`archive_folders`), as both stores hold them. */
import type { RefreshDigest } from "../../maps/refresh-digest.ts";

export interface ArchivesRow {
  saveId: number;
  playerId: string;
  /** Relative to the archive root, e.g. by-id/123/20261123_061500. */
  relPath: string;
  /** Unguessable id that names the archive in /maps/<token>/<file>.png. */
  token: string;
  files: string[];
  /** What the player's history shows of this refresh; null for archives made before it. */
  digest: RefreshDigest | null;
  createdAt: number;
}

export interface ArchiveFolderRow {
  relPath: string;
  saveId: number;
}
