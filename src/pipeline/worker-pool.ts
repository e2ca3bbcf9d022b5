/**
 * A small pool of task workers, one task in flight per worker (the rest wait in the pool's queue). A task
 * that runs past the timeout (a hung render; the archive writes after it have their own bound, and fail as the
 * store being away) fails with TaskTimeoutError, a worker that crashes fails its task; either way the worker is
 * replaced. What happens to the job is the runner's call (timeout-policy.ts).
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

class TaskWorker {
  private worker: Worker;
  /** The thread has loaded its code: a task dispatched now is timed from its own start. */
  private ready = false;
  private current: { task: QueuedTask; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.worker = this.spawn();
  }

  get idle(): boolean {
    return this.ready && this.current === null;
  }

  dispatch(task: QueuedTask): void {
    const timer = setTimeout(() => this.replace(new TaskTimeoutError(task.task, this.timeoutMs)), this.timeoutMs);
    this.current = { task, timer };
    this.worker.postMessage({ task: task.task, request: task.request });
  }

  terminate(): void {
    this.worker.terminate();
    this.finish(new Error("pipeline worker stopped"));
  }

  /** Drawn: the archive writes have their own bound (their retries, s3-store.ts), not the render's. */
  private writing(): void {
    if (!this.current) return;
    clearTimeout(this.current.timer);
    this.current.timer = setTimeout(() => this.replace(new StoreUnavailableError("bucket", `archive writes took longer than ${WRITE_TIMEOUT_MS / 1000} s`)), WRITE_TIMEOUT_MS);
  }

  private spawn(): Worker {
    this.ready = false;
    const worker = new Worker(workerEntry("render"));
    worker.onmessage = (event: MessageEvent<{ ready?: true; rendered?: true; result?: unknown; error?: string; store?: StoreName }>) => {
      if (worker !== this.worker) return;
      if (event.data.ready) {
        this.ready = true;
        this.onIdle();
        return;
      }
      if (event.data.rendered) return this.writing();
      const { error, store } = event.data;
      const failure = error === undefined ? null : store === undefined ? new Error(error) : new StoreUnavailableError(store, error.replace(/^\w+ unavailable: /, ""));
      this.finish(failure, event.data.result);
    };
    worker.onerror = (event) => {
      if (worker === this.worker) this.replace(new Error(`pipeline worker crashed: ${event.message}`));
    };
    return worker;
  }

  private replace(reason: Error): void {
    this.worker.terminate();
    this.worker = this.spawn();
    this.finish(reason);
  }

  private finish(error: Error | null, result?: unknown): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = null;
    if (error) current.task.reject(error);
    else current.task.resolve(result as never);
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
