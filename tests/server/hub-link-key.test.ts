/**
 * A hub's processes must open what any of them sealed (players' links, the setup token: src/link-key.ts), so hub
 * mode without LINK_KEY is refused at start, by the service and by the owner CLI alike, saying what to set and how to
 * make one, in the owner's language; and neither writes a DATA_DIR/link.key of its own. The refusal comes before
 * any connection: DATABASE_URL here names a port nothing listens on. That the processes of a hub with the key show
 * each other's links: tests/server/hub-two-services.test.ts.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { HUB_LINK_KEY } from "../helpers/hub-link-key.ts";
import { freePort } from "../helpers/free-port.ts";

const hubUrl = () => `postgres://hub:secret@127.0.0.1:${freePort()}/hub`;

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

test("hub mode without LINK_KEY is a configuration error naming LINK_KEY and how to make one; with it, or on SQLite, the start goes on", async () => {
  const url = hubUrl();
  const error = refusal({ DATABASE_URL: url });
  expect(error.message).toStartWith("hub mode (DATABASE_URL) needs LINK_KEY, the same on every process and for the owner CLI");
  expect(error.message).toContain("openssl rand -hex 32 (at least 32 characters)");
  expect(error.in("zh-Hans")).toStartWith("集群模式（DATABASE_URL）需要 LINK_KEY");
  expect(error.in("zh-Hans")).toContain("openssl rand -hex 32");
  expect(error.message).not.toContain("secret");
  expect(refusal({ DATABASE_URL: url, LINK_KEY: "short" }).message).toStartWith("LINK_KEY must be at least 32 characters");
  expect(loadConfig({ DATABASE_URL: url, LINK_KEY: HUB_LINK_KEY }).admin.linkKey).toBe(HUB_LINK_KEY);
  expect(loadConfig({}).admin.linkKey).toBeNull();
});

/** The service's or the CLI's process with only these variables (and PATH), in a data folder of its own. */
function run(entry: "main.ts" | "cli.ts", args: string[], env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "mysekai-hub-key-"));
  const done = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src", entry), ...args], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, CONFIG_DIR: join(dataDir, "config"), PORT: "0", HOST: "127.0.0.1", ...env },
    timeout: 60_000,
  });
  return { code: done.exitCode, err: done.stderr.toString(), files: readdirSync(dataDir) };
}

test("the service and the owner CLI on a hub without LINK_KEY stop with the reason in the owner's language, and make no link.key", async () => {
  const url = hubUrl();
  const service = run("main.ts", [], { DATABASE_URL: url, OWNER_LOCALE: "en" });
  expect(service.code).toBe(1);
  expect(service.err).toContain("hub mode (DATABASE_URL) needs LINK_KEY");
  expect(service.files).toEqual([]);
  const cli = run("cli.ts", ["players", "add", "7485938820123456789"], { DATABASE_URL: url, LANG: "zh_CN.UTF-8" });
  expect(cli.code).toBe(1);
  expect(cli.err).toContain("集群模式（DATABASE_URL）需要 LINK_KEY");
  expect(cli.err).toContain("openssl rand -hex 32");
  expect(cli.files).toEqual([]);
}, 120_000);
