/**
 * What a new self-hoster sees first: a zero-configuration start says once, plainly, that pushes are off (no
 * warning about the default route), and the owner CLI answers in words about things the owner has.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomKeys } from "../../src/samples/index.ts";
import { eventually, serversForThisFile } from "../helpers/in-process.ts";
import { reads } from "../helpers/store-reads.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, uploadSave } from "../helpers/saves.ts";

const start = serversForThisFile();

/** The owner CLI in `cwd` with only these variables (and PATH). */
function cli(args: string[], env: Record<string, string>, cwd = mkdtempSync(join(tmpdir(), "mysekai-cli-"))) {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/cli.ts"), ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env } });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

describe("first start", () => {
  test("with no channel configured: one plain line that pushes are off, and no warning about the default route", async () => {
    const server = await start({});
    await server.waitForOutput(/pushes are off/);
    const output = server.output();
    expect(output.match(/pushes are off/g)).toHaveLength(1);
    expect(output).not.toContain("is not configured");
    expect(output).toMatch(/\[CONFIG\] pushes are off: no push channel is configured/);
  });

  test("with only WEBHOOK_URL set, a save is pushed there with no other setting, and the start log says where (no secret)", async () => {
    const receiver = await startRecordingServer({ defaultResponse: { status: 204 } });
    try {
      const { pair, env } = randomKeys();
      const hook = "/hook/path-secret-token";
      const server = await start({ ...env, WEBHOOK_URL: `${receiver.url}${hook}` });
      await server.waitForOutput(/pushes go to/);
      expect(server.output()).toContain(`[CONFIG] pushes go to webhook at 127.0.0.1:${receiver.port} for every player not in push_map.json (the one channel configured)`);
      expect(server.output()).not.toContain("is not configured");
      expect((await uploadSave(server.url, encryptedSave(pair), crypto.randomUUID())).status).toBe(200);
      const [push] = await receiver.waitForRequests(1, 20_000);
      expect([push?.method, push?.path]).toEqual(["POST", hook]);
      expect(push?.json).toMatchObject({ event: "mysekai.save", playerId: PLAYER_ID });
      expect(server.output()).not.toContain("path-secret-token");
    } finally {
      await receiver.stop();
    }
  });

  test("with a channel configured, a default route to another channel is still warned about", async () => {
    const server = await start({ DISCORD_WEBHOOK_URL: "http://127.0.0.1:9/hook", NOTIFY_DEFAULT: "telegram" });
    await server.waitForOutput(/routes to telegram for \(default route\), but telegram is not configured/);
    expect(server.output()).not.toContain("pushes are off");
  });
});

describe("demo --to a running server", () => {
  test("sends a sample save encrypted with the AES_KEY/AES_IV of the environment, or of .env", async () => {
    const { env } = randomKeys();
    const server = await start(env);
    // Not spawnSync: the server answers from this very process.
    const demo = async (args: string[], runEnv: Record<string, string>, cwd?: string) => {
      const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/demo.ts"), ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...runEnv }, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
      return { code, out, err };
    };
    const sent = await demo(["--to", server.url], env);
    expect(sent.code).toBe(0);
    expect(sent.out).toContain("→ 200 OK");
    const cwd = mkdtempSync(join(tmpdir(), "mysekai-demo-"));
    writeFileSync(join(cwd, ".env"), `AES_KEY=${env.AES_KEY}\nAES_IV=${env.AES_IV}\n`);
    expect((await demo(["--to", server.url], {}, cwd)).code).toBe(0);
    await eventually(async () => (await reads(server).archives()).length === 2, 60_000, "two archived sample saves");
    expect((await demo(["--to", server.url], {})).err.trim()).toBe("no AES key configured: set AES_KEY and AES_IV (in the environment or .env) to the ones the server uses");
    const typo = await demo(["--too", server.url], env);
    expect([typo.code, typo.err.split("\n")[0]]).toEqual([1, "demo: unknown option --too (it takes --to)"]);
  }, 90_000);
});

describe("stopping", () => {
  test("a stopped service leaves nothing that keeps its process alive (the demo exits at once, not after the shutdown grace)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mysekai-stop-"));
    const script = join(dir, "stop.ts");
    const src = join(import.meta.dir, "../../src");
    writeFileSync(
      script,
      `import { loadConfig } from "${src}/config/index.ts";
       import { loadNotifySetup } from "${src}/notify/setup.ts";
       import { createService } from "${src}/service.ts";
       const config = loadConfig({ DATA_DIR: "${dir}/data", CONFIG_DIR: "${dir}/config", NOTIFY_DEFAULT: "none", SHUTDOWN_GRACE_MS: "600000" });
       const service = await createService(config, loadNotifySetup(config.notify, config.configDir));
       await service.stop();
       console.log("stopped");`,
    );
    // A grace far past this test's timeout: a timer left running for it would keep the process alive.
    const run = Bun.spawn([process.execPath, script], { env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    expect(out).toContain("stopped");
    expect(code).toBe(0);
  }, 20_000);
});

describe("owner CLI messages", () => {
  test("players add prints the link under the PUBLIC_BASE_URL the server started with, from another shell", async () => {
    const server = await start({ PUBLIC_BASE_URL: "https://sekai.example.com" });
    await server.stop();
    const added = cli(["players", "add", "7488393821744390161", "--name", "Alice"], { DATA_DIR: server.dataDir });
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/^link for 7488393821744390161: https:\/\/sekai\.example\.com\/p\/[A-Za-z0-9_-]{16,}$/m);
  });

  test("PUBLIC_BASE_URL in the shell's .env wins; inspect without keys and retry of a missing save say so plainly", async () => {
    const server = await start({});
    await server.stop();
    const cwd = mkdtempSync(join(tmpdir(), "mysekai-cli-"));
    writeFileSync(join(cwd, ".env"), "PUBLIC_BASE_URL=https://from-dotenv.example.org\n");
    expect(cli(["players", "add", "1234567890123456789"], { DATA_DIR: server.dataDir }, cwd).out).toContain("https://from-dotenv.example.org/p/");
    writeFileSync(join(cwd, "save.bin"), new Uint8Array(32));
    const inspected = cli(["inspect", join(cwd, "save.bin")], { DATA_DIR: server.dataDir });
    expect([inspected.code, inspected.err.trim()]).toEqual([1, "no AES key configured: set AES_KEY and AES_IV (in the environment or .env) to decrypt a save"]);
    const retried = cli(["retry", "999"], { DATA_DIR: server.dataDir });
    expect([retried.code, retried.err.trim()]).toEqual([1, "save 999 does not exist (npm run cli -- jobs lists saves and their jobs)"]);
  });

  test("an option, command or action the CLI does not know is an error that names it, and nothing is done", async () => {
    const server = await start({});
    await server.stop();
    const env = { DATA_DIR: server.dataDir };
    const refused = cli(["data-webhooks", "add", "https://bot.example/hook", "--format", "json-zstd"], env);
    expect([refused.code, refused.err.split("\n")[0]]).toEqual([1, "data-webhooks add: unknown option --format (it takes --bearer, --payload, --check-url)"]);
    expect(cli(["data-webhooks", "list"], env).out.trim()).toBe("no data webhooks");
    const typo = cli(["players", "add", "1234567890123456789", "--nmae", "Alice"], env);
    expect([typo.code, typo.err.split("\n")[0]]).toEqual([1, "players add: unknown option --nmae (it takes --name, --route)"]);
    expect(cli(["players", "list"], env).out.trim()).toBe("no players with a link");
    expect(cli(["jbos"], env).err.split("\n")[0]).toBe('unknown command "jbos"');
    expect(cli(["players", "remove", "1"], env).err.split("\n")[0]).toBe('unknown players action "remove" (one of: add, list, public, unlock)');
    expect(cli(["reprocess", "1", "--notfiy"], env).err.split("\n")[0]).toBe("reprocess: unknown option --notfiy (it takes --notify)");
  });
});
