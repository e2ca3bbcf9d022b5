/** Every way the service is started sets the launch settings (they cannot be set once it runs). */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LAUNCH_ENV, missingLaunchEnv } from "../../src/launch-env.ts";
import { startService } from "../../scripts/lib/service-process.ts";

const ROOT = join(import.meta.dir, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const settings = Object.entries(LAUNCH_ENV);

describe("launch settings", () => {
  test("npm start sets each one unless the caller already did", () => {
    const start = JSON.parse(read("package.json")).scripts.start as string;
    for (const [name, value] of settings) expect(start).toContain(`${name}=\${${name}:-${value}} `);
  });

  test("the Dockerfile and the systemd unit set each one", () => {
    for (const [name, value] of settings) {
      // The final stage's ENV instruction (one instruction, continued over lines).
      const finalStage = read("Dockerfile").split(/^FROM /m).at(-1)!;
      const env = /^ENV (?:.*\\\n)*.*$/m.exec(finalStage)?.[0] ?? "";
      expect(env.split(/\s+/)).toContain(`${name}=${value}`);
      expect(read("deploy/mysekai-ingest.service")).toContain(`\nEnvironment=${name}=${value}\n`);
    }
  });

  test("the service as tests, the demo and the benchmarks start it has them", async () => {
    const service = await startService({ env: { AES_KEY: "TestKeyTestKey16", AES_IV: "TestIvTestIv0016", NOTIFY_DEFAULT: "none" } });
    try {
      await service.waitForOutput("listening");
      const environ = readFileSync(`/proc/${service.pid}/environ`, "utf8").split("\0");
      for (const [name, value] of settings) expect(environ).toContain(`${name}=${value}`);
      expect(service.output()).not.toContain("started without its launch settings");
    } finally {
      await service.stop();
      service.cleanup();
    }
  });

  test("a missing one is named", () => {
    expect(missingLaunchEnv({})).toEqual(Object.keys(LAUNCH_ENV));
    expect(missingLaunchEnv({ ...LAUNCH_ENV })).toEqual([]);
    expect(missingLaunchEnv(Object.fromEntries(settings.map(([name]) => [name, ""])))).toEqual(Object.keys(LAUNCH_ENV));
  });
});
