/**
 * A small pool of task workers. A crashed worker, or one whose task ran past the timeout (a hung render),
 * fails its tasks (the pipeline retries them) and is replaced.
 */
import type { TaskName, Tasks } from "./tasks.ts";

interface Pending {
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

class TaskWorker {
  private worker: Worker;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly timeoutMs: number) {
    this.worker = this.spawn();
  }

  get busy(): number {
    return this.pending.size;
  }

  run<T extends TaskName>(task: T, request: Tasks[T][0]): Promise<Tasks[T][1]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.replace(new Error(`${task} task timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      const settle = () => clearTimeout(timer);
      this.pending.set(id, {
        resolve: ((result: never) => (settle(), resolve(result))) as (result: never) => void,
        reject: (error) => (settle(), reject(error)),
      });
      this.worker.postMessage({ id, task, request });
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll(new Error("pipeline worker stopped"));
  }

  private spawn(): Worker {
    const worker = new Worker(new URL("./worker.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
      const pending = this.pending.get(event.data.id);
      if (!pending) return;
      this.pending.delete(event.data.id);
      if (event.data.error === undefined) pending.resolve(event.data.result as never);
      else pending.reject(new Error(event.data.error));
    };
    worker.onerror = (event) => this.replace(new Error(`pipeline worker crashed: ${event.message}`));
    return worker;
  }

  private replace(reason: Error): void {
    this.worker.terminate();
    this.failAll(reason);
    this.worker = this.spawn();
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

export class WorkerPool {
  private workers: TaskWorker[];

  constructor(size: number, taskTimeoutMs: number) {
    this.workers = Array.from({ length: size }, () => new TaskWorker(taskTimeoutMs));
  }

  run<T extends TaskName>(task: T, request: Tasks[T][0]): Promise<Tasks[T][1]> {
    const idlest = this.workers.reduce((best, worker) => (worker.busy < best.busy ? worker : best));
    return idlest.run(task, request);
  }

  terminate(): void {
    for (const worker of this.workers) worker.terminate();
  }
}
