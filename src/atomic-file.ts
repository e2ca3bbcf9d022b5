/** Writing a file whole or not at all. */
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * Writes `path` through a temporary file beside it, renamed over it: a reader (or a crash) sees the old file or the
 * new one. The temporary name is unique per thread, so threads may race to write the same file; `mode` is set before
 * the rename, so the file is never readable by others for a moment.
 */
export function writeFileAtomically(path: string, data: Uint8Array | string, mode?: number): void {
  const temporary = `${path}.${process.pid}.${crypto.randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, data, mode === undefined ? undefined : { mode });
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
