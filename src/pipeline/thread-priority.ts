/**
 * Background threads yield to the HTTP thread. Renders run on Bun's thread pool ("Bun Pool N") and the
 * pipeline's JavaScript on worker threads ("Worker"); at nice 10 they still take both cores while the HTTP
 * thread is idle, but an arriving request no longer waits for a time slice behind them (report latency while
 * maps render). They are also SCHED_BATCH: CPU-bound work whose wake-ups do not preempt a running thread, so
 * renders and the pipeline's JavaScript switch at time-slice ends instead of each time one of them wakes (a save
 * lost ~440 time slices to ~50 on SQLite, ~3–5 % less CPU a save: BENCHMARKS.md, issue 39); a waking HTTP thread
 * still preempts them. Linux gives each thread its own nice value and policy; elsewhere, or without libc, this does
 * nothing.
 */
import { dlopen, FFIType } from "bun:ffi";
import { readdirSync, readFileSync } from "node:fs";

const BACKGROUND_NICE = 10;
const PRIO_PROCESS = 0;
const BACKGROUND_THREAD = /^(Bun Pool|Worker)/;

const SCHED_BATCH = 3;
/** struct sched_param: a priority of 0, the only one SCHED_BATCH takes. */
const NO_RT_PRIORITY = new Int32Array(1);

type SetPriority = (which: number, who: number, prio: number) => number;
type SetScheduler = (tid: number, policy: number, param: Int32Array) => number;

function loadLibc(): { setPriority: SetPriority; setScheduler: SetScheduler } | null {
  if (process.platform !== "linux") return null;
  try {
    const libc = dlopen("libc.so.6", {
      setpriority: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
    });
    return { setPriority: libc.symbols.setpriority as SetPriority, setScheduler: libc.symbols.sched_setscheduler as unknown as SetScheduler };
  } catch {
    return null;
  }
}

const libc = loadLibc();

/** Threads are made on demand (and the pool's may come and go), so this runs again with each pipeline task. */
export function lowerBackgroundThreads(): void {
  if (libc === null) return;
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      if (BACKGROUND_THREAD.test(readFileSync(`/proc/self/task/${tid}/comm`, "utf8"))) {
        libc.setScheduler(Number(tid), SCHED_BATCH, NO_RT_PRIORITY);
        libc.setPriority(PRIO_PROCESS, Number(tid), BACKGROUND_NICE);
      }
    } catch {
      // The thread ended meanwhile.
    }
  }
}
