/**
 * A small pool of task workers, one task drawing per worker (the rest wait in the pool's queue). A generate task
 * whose maps are drawn lets its worker take the next one while its archive writes to a bucket finish (concurrency.ts:
 * drawing and waiting apart), so a worker draws one save at a time and writes a few. A task that runs past the timeout
 * (a hung render; the archive writes after it have their own bound, and fail as the store being away) fails with
 * TaskTimeoutError, a worker that crashes fails its tasks; either way the worker is replaced. What happens to the job
 * is the runner's call (timeout-policy.ts).
 */
import { PUT_TRY_MS } from "../archive/s3-store.ts";
import { StoreUnavailableError, type StoreName } from "../store-unavailable.ts";
import type { TaskName, Tasks } from "./tasks.ts";
import { workerEntry } from "../runtime-files.ts";

const TASK_WORDS: Record<TaskName, string> = { generate: "rendering", evaluate: "evaluating the report" };
/** The archive writes of one save: every try of the slowest object, and a margin (a worker stuck past it is replaced). */
const WRITE_TIMEOUT_MS = 4 * PUT_TRY_MS;

export class TaskTimeoutError extends Error {
  /** The message without the duration: what every timeout of this task starts with. */
  readonly prefix: string;
  constructor(task: TaskName, timeoutMs: number) {
    const prefix = `${TASK_WORDS[task]} took longer than`;
    super(`${prefix} ${timeoutMs / 1000} s`);
    this.prefix = prefix;
  }
}

interface QueuedTask {
  task: TaskName;
  request: unknown;
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

/** A task on a worker, and the timer that bounds its current phase (drawing, then writing). */
interface RunningTask {
  task: QueuedTask;
  timer: ReturnType<typeof setTimeout>;
}

/** The message a worker answers with; `id` names the task (src/pipeline/worker.ts). */
interface WorkerReply {
  id?: number;
  ready?: true;
  rendered?: true;
  result?: unknown;
  error?: string;
  store?: StoreName;
}

class TaskWorker {
  private worker: Worker;
  /** The thread has loaded its code: a task dispatched now is timed from its own start. */
  private ready = false;
  private nextId = 0;
  /** The task drawing (at most one), and those whose maps are drawn and whose writes go on. */
  private drawing: number | null = null;
  private readonly running = new Map<number, RunningTask>();

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.worker = this.spawn();
  }

  /** Free to draw: its tasks, if any, only write. */
  get idle(): boolean {
    return this.ready && this.drawing === null;
  }

  dispatch(task: QueuedTask): void {
    const id = this.nextId++;
    const timer = setTimeout(() => this.replace(new TaskTimeoutError(task.task, this.timeoutMs), id), this.timeoutMs);
    this.running.set(id, { task, timer });
    this.drawing = id;
    this.worker.postMessage({ id, task: task.task, request: task.request });
  }

  terminate(): void {
    this.worker.terminate();
    for (const id of [...this.running.keys()]) this.finish(id, new Error("pipeline worker stopped"));
  }

  /** Drawn: the archive writes have their own bound (their retries, s3-store.ts), not the render's; the next save may draw. */
  private writing(id: number): void {
    const running = this.running.get(id);
    if (!running) return;
    clearTimeout(running.timer);
    running.timer = setTimeout(() => this.replace(new StoreUnavailableError("bucket", `archive writes took longer than ${WRITE_TIMEOUT_MS / 1000} s`), id), WRITE_TIMEOUT_MS);
    if (this.drawing === id) this.drawing = null;
    this.onIdle();
  }

  private spawn(): Worker {
    this.ready = false;
    const worker = new Worker(workerEntry("render"));
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      if (worker !== this.worker) return;
      const { id, ready, rendered, error, store, result } = event.data;
      if (ready) {
        this.ready = true;
        this.onIdle();
        return;
      }
      if (id === undefined) return;
      if (rendered) return this.writing(id);
      const failure = error === undefined ? null : store === undefined ? new Error(error) : new StoreUnavailableError(store, error.replace(/^\w+ unavailable: /, ""));
      this.finish(id, failure, result);
    };
    worker.onerror = (event) => {
      if (worker === this.worker) this.replace(new Error(`pipeline worker crashed: ${event.message}`));
    };
    return worker;
  }

  /**
   * Ends the thread and every task on it: `culprit` (the one past its bound) with `reason`, the others (a save
   * drawing beside a write that hung) as their store being away, so they run again soon at no retry's cost.
   */
  private replace(reason: Error, culprit?: number): void {
    this.worker.terminate();
    this.worker = this.spawn();
    for (const id of [...this.running.keys()]) {
      const bystander = culprit !== undefined && id !== culprit;
      this.finish(id, bystander ? new StoreUnavailableError("bucket", "its worker was replaced: another task on it ran past its bound") : reason);
    }
  }

  private finish(id: number, error: Error | null, result?: unknown): void {
    const running = this.running.get(id);
    if (!running) return;
    clearTimeout(running.timer);
    this.running.delete(id);
    if (this.drawing === id) this.drawing = null;
    if (error) running.task.reject(error);
    else running.task.resolve(result as never);
    this.onIdle();
  }
}

export class WorkerPool {
  private workers: TaskWorker[];
  private queue: QueuedTask[] = [];

  constructor(size: number, taskTimeoutMs: number) {
    this.workers = Array.from({ length: size }, () => new TaskWorker(taskTimeoutMs, () => this.pump()));
  }

  run<T extends TaskName>(task: T, request: Tasks[T][0]): Promise<Tasks[T][1]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, request, resolve: resolve as (result: never) => void, reject });
      this.pump();
    });
  }

  terminate(): void {
    for (const worker of this.workers) worker.terminate();
    for (const task of this.queue.splice(0)) task.reject(new Error("pipeline worker stopped"));
  }

  private pump(): void {
    for (const worker of this.workers) {
      const next = worker.idle ? this.queue.shift() : undefined;
      if (next) worker.dispatch(next);
    }
  }
}
