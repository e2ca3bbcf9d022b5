/** Worker entry: runs pipeline tasks (decrypt, decode, draw) off the HTTP thread. */
import { prepareRuntimeFiles } from "../runtime-files.ts";
import { runEvaluate, runGenerate, type TaskName } from "./tasks.ts";
import { lowerBackgroundThreads } from "./thread-priority.ts";

declare const self: Worker;

interface TaskMessage {
  task: TaskName;
  request: unknown;
}

self.onmessage = async (event: MessageEvent<TaskMessage>) => {
  const { task, request } = event.data;
  // Here, not on the HTTP thread: it reads /proc once per thread.
  lowerBackgroundThreads();
  try {
    await prepareRuntimeFiles();
    if (task === "evaluate") {
      self.postMessage({ result: runEvaluate(request as Parameters<typeof runEvaluate>[0]) });
      return;
    }
    // Copied, not transferred: ~1 MB a save, a fraction of a millisecond.
    self.postMessage({ result: await runGenerate(request as Parameters<typeof runGenerate>[0]) });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
