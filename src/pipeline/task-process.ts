/**
 * A pipeline task in a process of its own, for a job that was running when the service died: if that job is a
 * save that crashes whatever runs it, only this process dies, and the service sees how (TaskProcessDied). The
 * child is this same program (`bun src/main.ts` or the one-file build) started with TASK_PROCESS_ENV set, which
 * runs task-process-child.ts instead of the service.
 */
import { resolve } from "node:path";
import { StoreUnavailableError, type StoreName } from "../store-unavailable.ts";
import type { TaskName, Tasks } from "./tasks.ts";
import { TaskTimeoutError } from "./worker-pool.ts";

export const TASK_PROCESS_ENV = "MYSEKAI_TASK_PROCESS";
const MAIN = resolve(import.meta.dir, "..", "main.ts");
const COMPILED = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.includes("~BUN");

/** The task's process ended before it answered (a crash, a signal, an out-of-memory kill). */
export class TaskProcessDied extends Error {
  constructor(readonly how: string) {
    super(`the task's own process died (${how})`);
  }
}

/** Runs one task in a fresh child process; the child is killed past `timeoutMs` (TaskTimeoutError). */
export function runInTaskProcess<T extends TaskName>(task: T, request: Tasks[T][0], timeoutMs: number): Promise<Tasks[T][1]> {
  return new Promise((resolvePromise, reject) => {
    let answered = false;
    const child = Bun.spawn(COMPILED ? [process.execPath] : [process.execPath, MAIN], {
      env: { ...process.env, [TASK_PROCESS_ENV]: "1" },
      stdin: "ignore",
      stdout: "inherit",
      stderr: "inherit",
      serialization: "advanced",
      ipc(message: { result?: unknown; error?: string; store?: StoreName }) {
        answered = true;
        clearTimeout(timer);
        if (message.error !== undefined) reject(message.store === undefined ? new Error(message.error) : new StoreUnavailableError(message.store, message.error.replace(/^\w+ unavailable: /, "")));
        else resolvePromise(message.result as Tasks[T][1]);
        child.kill();
      },
    });
    const timer = setTimeout(() => {
      answered = true;
      child.kill("SIGKILL");
      reject(new TaskTimeoutError(task, timeoutMs));
    }, timeoutMs);
    child.send({ task, request });
    void child.exited.then((code) => {
      if (answered) return;
      clearTimeout(timer);
      reject(new TaskProcessDied(child.signalCode ? `signal ${child.signalCode}` : `exit code ${code}`));
    });
  });
}
