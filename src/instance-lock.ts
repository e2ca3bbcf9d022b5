/**
 * One service per DATA_DIR: a second one would requeue the first one's running jobs at start-up and push
 * twice. The lock file holds the owner's pid; a lock left by a process that died is taken over.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws an Error saying which process holds it; returns the release function. */
export function acquireInstanceLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "service.lock");
  const mine = String(process.pid);
  try {
    writeFileSync(path, mine, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(path, "utf8").trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new Error(`another instance (pid ${holder}) already serves DATA_DIR ${dataDir}`);
    }
    writeFileSync(path, mine);
  }
  return () => {
    try {
      if (readFileSync(path, "utf8").trim() === mine) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
}
