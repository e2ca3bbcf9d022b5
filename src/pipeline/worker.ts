/** Worker entry: runs pipeline tasks (decrypt, decode, draw, write the archive folder) off the HTTP thread. */
import { prepareRuntimeFiles } from "../runtime-files.ts";
import { unavailableStore } from "../store-unavailable.ts";
import { runEvaluate, runGenerate, type TaskName } from "./tasks.ts";
import { collectWorkerHeap } from "./worker-heap.ts";
import { lowerBackgroundThreads } from "./thread-priority.ts";

declare const self: Worker;

interface TaskMessage {
  /** Names the task in the answers: a worker draws one save while earlier ones still write (worker-pool.ts). */
  id: number;
  task: TaskName;
  request: unknown;
}

// Here, not on the HTTP thread: it reads /proc once per thread. This worker's own thread at once.
lowerBackgroundThreads();

/**
 * The full GC after a save waits a moment: it runs on this thread and its helpers (both cores), and right after
 * the answer the HTTP thread commits that save and starts its next stage. A task arriving first runs it then. A
 * save that ends while the next one draws here (its writes outlasted its drawing) leaves it to the next task's
 * start: never in the middle of a drawing, whose time counts against TASK_TIMEOUT_MS.
 */
const GC_DELAY_MS = 15;
let pendingGc: ReturnType<typeof setTimeout> | null = null;
let gcOwed = false;
/** Tasks begun and not yet answered: one drawing, and those whose archive writes go on. */
let running = 0;

function collectNow(): void {
  if (pendingGc === null && !gcOwed) return;
  clearTimeout(pendingGc ?? undefined);
  pendingGc = null;
  gcOwed = false;
  collectWorkerHeap();
}

self.onmessage = async (event: MessageEvent<TaskMessage>) => {
  const { id, task, request } = event.data;
  collectNow();
  running++;
  try {
    await prepareRuntimeFiles();
    if (task === "evaluate") {
      self.postMessage({ id, result: runEvaluate(request as Parameters<typeof runEvaluate>[0]) });
    } else {
      const generate = request as Parameters<typeof runGenerate>[0];
      // Only a bucket's writes are worth drawing the next save beside: a local disk's are an fsync away, and a save
      // whose render runs past its bound would take a bystander's writes down with this thread.
      const overlap = generate.archive.location.kind === "s3";
      self.postMessage({ id, result: await runGenerate(generate, () => overlap && self.postMessage({ id, rendered: true })) });
    }
  } catch (error) {
    // A store away crosses as its name: the runner waits for it instead of spending a retry.
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error), store: unavailableStore(error) ?? undefined });
  } finally {
    running--;
  }
  // After the answer, off the save's path: pool threads started by this task yield to HTTP from the next
  // one on (the pool's threads come and go), and soon after the renders' native pixmaps are freed
  // (see generateOutputs).
  lowerBackgroundThreads();
  if (task === "generate" && running > 0) gcOwed = true;
  else if (task === "generate") pendingGc ??= setTimeout(collectNow, GC_DELAY_MS);
};

// Loaded: from now on a task's timeout measures the task, not this thread's start-up (~0.5 s on a busy machine).
await prepareRuntimeFiles();
self.postMessage({ ready: true });
