import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../../src/config/index.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

test(".env.example starts as it is (every blank is optional) and names only variables the config reads", () => {
  const env: Record<string, string> = { DATA_DIR: "/tmp/mysekai-env-example" };
  for (const line of read(".env.example").split("\n")) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  expect(() => loadConfig(env)).not.toThrow();
  const sources = ["src/config/index.ts", "src/config/admin.ts", "src/config/endpoints.ts", "src/config/notify.ts"].map(read).join("\n");
  for (const name of Object.keys(env)) expect(sources).toContain(`"${name}"`);
});

test("the container runs as a non-root user with DATA_DIR on its volume and a HEALTHCHECK on /healthz", () => {
  const dockerfile = read("Dockerfile");
  expect(dockerfile).toMatch(/^FROM .+ AS deps$/m);
  expect(dockerfile).toMatch(/^USER bun$/m);
  expect(dockerfile).toContain("DATA_DIR=/data");
  expect(dockerfile).toContain('VOLUME ["/data"]');
  expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]+\/healthz/);
  for (const copied of ["drizzle", "assets", "src", "tsconfig.json"]) expect(dockerfile).toContain(copied);
  expect(read("compose.yaml")).toContain(":/data");
  expect(read("deploy/mysekai-ingest.service")).toContain("ExecStart=");
});
