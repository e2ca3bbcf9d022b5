/**
 * Background threads yield to the HTTP thread. Renders run on Bun's thread pool ("Bun Pool N") and the
 * pipeline's JavaScript on worker threads ("Worker"); at nice 10 they still take both cores while the HTTP
 * thread is idle, but an arriving request no longer waits for a time slice behind them (report latency while
 * maps render). Linux gives each thread its own nice value; elsewhere, or without libc, this does nothing.
 */
import { dlopen, FFIType } from "bun:ffi";
import { readdirSync, readFileSync } from "node:fs";

const BACKGROUND_NICE = 10;
const PRIO_PROCESS = 0;
const BACKGROUND_THREAD = /^(Bun Pool|Worker)/;

type SetPriority = (which: number, who: number, prio: number) => number;

function loadSetPriority(): SetPriority | null {
  if (process.platform !== "linux") return null;
  try {
    const libc = dlopen("libc.so.6", { setpriority: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    return libc.symbols.setpriority as SetPriority;
  } catch {
    return null;
  }
}

const setPriority = loadSetPriority();

/** Threads are made on demand (and the pool's may come and go), so this runs again with each pipeline task. */
export function lowerBackgroundThreads(): void {
  if (setPriority === null) return;
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      if (BACKGROUND_THREAD.test(readFileSync(`/proc/self/task/${tid}/comm`, "utf8"))) setPriority(PRIO_PROCESS, Number(tid), BACKGROUND_NICE);
    } catch {
      // The thread ended meanwhile.
    }
  }
}
