/** A small pool of task workers; a crashed worker fails its tasks (they are retried) and is replaced. */
import type { TaskName, Tasks } from "./tasks.ts";

interface Pending {
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

class TaskWorker {
  private worker: Worker;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor() {
    this.worker = this.spawn();
  }

  get busy(): number {
    return this.pending.size;
  }

  run<T extends TaskName>(task: T, request: Tasks[T][0]): Promise<Tasks[T][1]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: never) => void, reject });
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
    worker.onerror = (event) => {
      this.failAll(new Error(`pipeline worker crashed: ${event.message}`));
      worker.terminate();
      this.worker = this.spawn();
    };
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

export class WorkerPool {
  private workers: TaskWorker[];

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => new TaskWorker());
  }

  run<T extends TaskName>(task: T, request: Tasks[T][0]): Promise<Tasks[T][1]> {
    const idlest = this.workers.reduce((best, worker) => (worker.busy < best.busy ? worker : best));
    return idlest.run(task, request);
  }

  terminate(): void {
    for (const worker of this.workers) worker.terminate();
  }
}
