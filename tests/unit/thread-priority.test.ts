import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { lowerBackgroundThreads } from "../../src/pipeline/thread-priority.ts";

const SCHED_OTHER = 0;
const SCHED_BATCH = 3;

/** Nice value and scheduling policy of each thread of this process, by its name (fields 19 and 41 of /proc/<pid>/task/<tid>/stat). */
function schedulingByThread(): { name: string; nice: number; policy: number }[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { name, nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

test.skipIf(process.platform !== "linux")("worker threads run at nice 10 as batch work; the HTTP (main) thread stays at 0, a normal thread", async () => {
  const worker = new Worker(URL.createObjectURL(new Blob(["self.onmessage = () => self.postMessage('up');"], { type: "application/javascript" })));
  await new Promise((resolve) => {
    worker.onmessage = resolve;
    worker.postMessage("ping");
  });
  try {
    lowerBackgroundThreads();
    const threads = schedulingByThread();
    const workers = threads.filter((thread) => thread.name.startsWith("Worker"));
    expect(workers.length).toBeGreaterThan(0);
    for (const thread of workers) expect([thread.nice, thread.policy]).toEqual([10, SCHED_BATCH]);
    const main = threads.find((thread) => thread.name === readFileSync("/proc/self/comm", "utf8").trim());
    expect([main?.nice, main?.policy]).toEqual([0, SCHED_OTHER]);
  } finally {
    worker.terminate();
  }
});
