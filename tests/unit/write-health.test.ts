/** The pipeline's write health: said once per run of failures; a claim's problem ends with a claim, a stage's only with a recorded stage. */
import { afterAll, afterEach, expect, test } from "bun:test";
import { flushLog, setLogSink } from "../../src/log.ts";
import { WriteHealth } from "../../src/pipeline/write-health.ts";

const lines: string[] = [];
setLogSink((line) => void lines.push(line));
afterEach(() => {
  flushLog();
  lines.length = 0;
});
afterAll(() => setLogSink(null));
const said = (text: string) => (flushLog(), lines.filter((line) => line.includes(text)).length);

test("a stage out of space, then the loop failing too: one line, and only a recorded stage ends it", () => {
  const health = new WriteHealth();
  health.failed("ENOSPC: no space left on device");
  health.failed("database or disk is full", "claim");
  health.claimed();
  expect(health.current()).toBe("database or disk is full");
  health.failed("ENOSPC: no space left on device");
  expect(said("the pipeline cannot write")).toBe(1);
  health.recorded();
  expect(health.current()).toBeNull();
  expect(said("the pipeline writes again")).toBe(1);
});

test("a claim that failed ends with the next claim that goes through", () => {
  const health = new WriteHealth();
  health.claimed();
  health.failed("database is locked", "claim");
  health.failed("database is locked", "claim");
  expect(said("the pipeline cannot write")).toBe(1);
  health.claimed();
  expect(health.current()).toBeNull();
});
