/** The child side of task-process.ts: one task in over IPC, its answer out, then the parent ends the process. */
import { prepareRuntimeFiles } from "../runtime-files.ts";
import { unavailableStore } from "../store-unavailable.ts";
import { runEvaluate, runGenerate, type TaskName, type Tasks } from "./tasks.ts";

/** How often the child checks that the service that started it still runs (an orphan stops: its answer has no reader). */
const PARENT_CHECK_MS = 200;

export function serveOneTask(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, PARENT_CHECK_MS).unref();
  process.once("message", async (message: { task: TaskName; request: unknown }) => {
    try {
      await prepareRuntimeFiles();
      const result = message.task === "evaluate" ? runEvaluate(message.request as Tasks["evaluate"][0]) : await runGenerate(message.request as Tasks["generate"][0]);
      process.send!({ result });
    } catch (error) {
      process.send!({ error: error instanceof Error ? error.message : String(error), store: unavailableStore(error) ?? undefined });
    }
  });
}
