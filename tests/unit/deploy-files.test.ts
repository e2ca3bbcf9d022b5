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
  // The optional block, commented out: each example value is valid too.
  const optional: Record<string, string> = { ...env };
  for (const line of read(".env.example").split("\n")) {
    const match = /^# ([A-Z_]+)=(.*)$/.exec(line);
    if (match) optional[match[1]!] = match[2]!;
  }
  expect(Object.keys(optional)).toEqual(expect.arrayContaining(["REPORT_TOKEN", "UPLOAD_TOKEN", "MAP_LOCALE", "MAP_TIMEZONE"]));
  expect(() => loadConfig(optional)).not.toThrow();
  const sources = ["index", "admin", "endpoints", "notify", "maps"].map((name) => read(`src/config/${name}.ts`)).join("\n");
  for (const name of Object.keys(optional)) expect(sources).toContain(`"${name}"`);
});

test("the image context leaves out builds, local config and data; config is a bind mount; bun is a runtime dependency", () => {
  const ignored = read(".dockerignore").split("\n");
  for (const name of ["node_modules", "dist", "config", "data", ".env"]) expect(ignored).toContain(name);
  expect(read("Dockerfile")).toContain("CONFIG_DIR=/config");
  expect(read("compose.yaml")).toContain("./config:/config:ro");
  const pkg = JSON.parse(read("package.json"));
  expect(pkg.dependencies.bun).toBe(pkg.devDependencies?.["@types/bun"]);
  expect(pkg.devDependencies?.bun).toBeUndefined();
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
