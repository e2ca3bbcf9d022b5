/** A task in a process of its own (src/pipeline/task-process.ts): its answer comes back; its death is seen as such. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { runInTaskProcess, TaskProcessDied } from "../../src/pipeline/task-process.ts";
import { TaskTimeoutError } from "../../src/pipeline/worker-pool.ts";
import { encryptedSave, testKeys } from "../helpers/saves.ts";

const { pair } = testKeys();

/** The pids of this process's children right now (Linux /proc). */
const children = () => readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);

test("the child runs the task and answers", async () => {
  const result = await runInTaskProcess("evaluate", { bodies: [encryptedSave(pair)], keys: [{ ...pair, label: "test" }] }, 30_000);
  expect(result).toEqual({ save: 0, partial: null, decryptedAny: true });
});

test("a child killed while it runs is TaskProcessDied naming the signal; past the timeout it is TaskTimeoutError", async () => {
  const before = new Set(children());
  const running = runInTaskProcess("evaluate", { bodies: [encryptedSave(pair)], keys: [{ ...pair, label: "test" }] }, 30_000);
  let child: number | undefined;
  for (let i = 0; i < 2000 && child === undefined; i++) {
    child = children().find((pid) => !before.has(pid));
    if (child === undefined) await Bun.sleep(5);
  }
  process.kill(child!, "SIGKILL");
  const error = await running.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TaskProcessDied);
  expect((error as TaskProcessDied).how).toBe("signal SIGKILL");
  expect(await runInTaskProcess("evaluate", { bodies: [], keys: [] }, 1).catch((caught: unknown) => caught)).toBeInstanceOf(TaskTimeoutError);
});
