/** Log lines: `[PREFIX] message key=value`, written after the current turn of the event loop, in order. */
import { afterAll, afterEach, describe, expect, spyOn, test } from "bun:test";
import { flushLog, logInfo, logWarn } from "../../src/log.ts";

const written: string[] = [];
const spies = [
  spyOn(console, "log").mockImplementation((line: string) => void written.push(`out ${line}`)),
  spyOn(console, "warn").mockImplementation((line: string) => void written.push(`err ${line}`)),
];
afterEach(() => {
  flushLog();
  written.length = 0;
});
afterAll(() => {
  for (const spy of spies) spy.mockRestore();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("log lines", () => {
  test("are written after the current turn, in the order they were logged, warnings to stderr", async () => {
    logInfo("UPLOAD", "save stored", { upload: "u-1", bytes: 512, player: undefined });
    logWarn("UPLOAD", "rejected", { reason: "X-Upload-Id is required" });
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual(['out [UPLOAD] save stored upload=u-1 bytes=512', 'err [UPLOAD] WARN rejected reason="X-Upload-Id is required"']);
  });

  test("flushLog writes what is queued at once (start-up banner, exit)", () => {
    logInfo("SERVER", "listening", { url: "http://127.0.0.1:9478" });
    flushLog();
    expect(written).toEqual(["out [SERVER] listening url=http://127.0.0.1:9478"]);
  });
});
