import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { lowerBackgroundThreads } from "../../src/pipeline/thread-priority.ts";

/** Nice value of each thread of this process, by its name (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceByThread(): { name: string; nice: number }[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { name, nice: Number(fields[16]) };
  });
}

test.skipIf(process.platform !== "linux")("worker threads run at nice 10; the HTTP (main) thread stays at 0", async () => {
  const worker = new Worker(URL.createObjectURL(new Blob(["self.onmessage = () => self.postMessage('up');"], { type: "application/javascript" })));
  await new Promise((resolve) => {
    worker.onmessage = resolve;
    worker.postMessage("ping");
  });
  try {
    lowerBackgroundThreads();
    const threads = niceByThread();
    const workers = threads.filter((thread) => thread.name.startsWith("Worker"));
    expect(workers.length).toBeGreaterThan(0);
    for (const thread of workers) expect(thread.nice).toBe(10);
    expect(threads.find((thread) => thread.name === readFileSync("/proc/self/comm", "utf8").trim())?.nice).toBe(0);
  } finally {
    worker.terminate();
  }
});
