/**
 * A real S3-compatible server for the tests and benches: OpenStack Swift (Debian's swift, swift-proxy, swift-object,
 * swift-container, swift-account and memcached) with s3api and tempauth, on loopback ports in a temp folder.
 * Started once per test process on first use (~5-20 s) and shared; each caller gets a bucket of its own.
 * A supervisor shell in a session of its own (not the test run's child) starts the servers and records their
 * pids (they setsid themselves): they are killed at exit, and the supervisor kills them when the test run's pid
 * ends (tail --pid), i.e. also when it dies without running any handler.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "./proc.ts";

const BINARIES = ["swift-proxy-server", "swift-object-server", "swift-container-server", "swift-account-server", "swift-ring-builder", "memcached"];
const BIN_DIRS = ["/usr/bin", "/usr/local/bin", "/usr/sbin"];

/** Why the Swift tests cannot run here (a binary is absent), or null. */
export const swiftSkipReason: string | null = (() => {
  const missing = BINARIES.filter((name) => !BIN_DIRS.some((dir) => existsSync(join(dir, name))));
  return missing.length === 0
    ? null
    : `S3 tests skipped: ${missing.join(", ")} not installed (apt-get install swift swift-proxy swift-object swift-container swift-account memcached)`;
})();

export const SWIFT_ACCESS_KEY = "test:tester";
/** Distinctive, so a test that looks for it in logs cannot match an ordinary word. */
export const SWIFT_SECRET_KEY = "swift-s3cret-7e1d4b";

export interface SwiftBucket {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

interface RunningSwift {
  endpoint: string;
  token: string;
}

let running: Promise<RunningSwift> | null = null;
/** The account to run the servers as (Swift switches to it; os.userInfo() may not know root's name). */
const user = () => Bun.spawnSync(["id", "-un"]).stdout.toString().trim();
let buckets = 0;

/** A new empty bucket on the shared Swift (started on first call: give that call ~2 minutes). */
export async function swiftBucket(): Promise<SwiftBucket> {
  if (swiftSkipReason !== null) throw new Error(swiftSkipReason);
  const swift = await (running ??= startSwift());
  const bucket = `b${process.pid}-${++buckets}`;
  // The container and object servers may still be starting when the proxy and the account answer: 503 until
  // they are up. A probe object proves the object server is.
  const container = `${swift.endpoint}/v1/AUTH_test/${bucket}`;
  await untilUp(`creating bucket ${bucket}`, () => fetch(container, { method: "PUT", headers: { "X-Auth-Token": swift.token } }));
  await untilUp("a first object", () => fetch(`${container}/probe`, { method: "PUT", headers: { "X-Auth-Token": swift.token }, body: "x" }));
  await untilUp("deleting the first object", () => fetch(`${container}/probe`, { method: "DELETE", headers: { "X-Auth-Token": swift.token } }));
  return { endpoint: swift.endpoint, bucket, accessKeyId: SWIFT_ACCESS_KEY, secretAccessKey: SWIFT_SECRET_KEY, region: "us-east-1" };
}

/** Repeats a request while Swift answers 5xx (a server still starting), for up to a minute. */
async function untilUp(what: string, request: () => Promise<Response>): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await request();
    if (response.ok) return;
    if (response.status < 500 || Date.now() > deadline) throw new Error(`${what}: ${response.status} ${await response.text()}`);
    await Bun.sleep(100);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What every server's [DEFAULT] says: loopback, one process, and a bind that gives up after 5 s (a taken port). */
function defaults(dir: string, port: number): string {
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
bind_timeout = 5
workers = 0
user = ${user()}
swift_dir = ${dir}
log_level = WARNING
`;
}

function serverConf(dir: string, port: number, kind: "account" | "container" | "object"): string {
  return `${defaults(dir, port)}devices = ${join(dir, "srv")}
mount_check = false

[pipeline:main]
pipeline = ${kind}-server

[app:${kind}-server]
use = egg:swift#${kind}
`;
}

function proxyConf(dir: string, port: number, memcachedPort: number): string {
  const filters = ["catch_errors", "gatekeeper", "healthcheck", "proxy-logging", "listing_formats", "copy", "dlo", "versioned_writes"];
  return `${defaults(dir, port)}
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachedPort}

[filter:s3api]
use = egg:swift#s3api

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SWIFT_SECRET_KEY} .admin

${filters.map((name) => `[filter:${name}]\nuse = egg:swift#${name.replace("-", "_")}\n`).join("\n")}`;
}

/** swift-ring-builder exits 1 for a warning (its EXIT_WARNING), 2 for an error. */
async function run(cmd: string[], cwd: string): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if ((await proc.exited) > 1) throw new Error(`${cmd.join(" ")} (exit ${proc.exitCode}, signal ${proc.signalCode}): ${await new Response(proc.stdout).text()} ${await new Response(proc.stderr).text()}`);
}

/**
 * Ports are picked free and bound a moment later by the servers, so another program may take one in between: a
 * server that dies at start is tried once more on new ports.
 */
async function startSwift(): Promise<RunningSwift> {
  try {
    return await startSwiftOnce();
  } catch (error) {
    if (!(error instanceof ServerDied)) throw error;
    return startSwiftOnce();
  }
}

class ServerDied extends Error {}

async function startSwiftOnce(): Promise<RunningSwift> {
  const dir = mkdtempSync(join(tmpdir(), "mysekai-swift-"));
  const pids = (): number[] => (existsSync(join(dir, "pids")) ? readFileSync(join(dir, "pids"), "utf8").split("\n").filter(Boolean).map(Number) : []);
  const stop = () => {
    for (const pid of pids()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stop);
  try {
    return await startIn(dir, pids);
  } catch (error) {
    stop();
    process.off("exit", stop);
    throw error;
  }
}

async function startIn(dir: string, pids: () => number[]): Promise<RunningSwift> {
  mkdirSync(join(dir, "srv", "d1"), { recursive: true });
  const [account, container, object, proxy, memcached] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  writeFileSync(join(dir, "swift.conf"), "[swift-hash]\nswift_hash_path_suffix = tests\nswift_hash_path_prefix = tests\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n");
  for (const [kind, port] of [["account", account], ["container", container], ["object", object]] as const) {
    writeFileSync(join(dir, `${kind}.conf`), serverConf(dir, port, kind));
    await run(["swift-ring-builder", `${kind}.builder`, "create", "6", "1", "1"], dir);
    await run(["swift-ring-builder", `${kind}.builder`, "add", `r1z1-127.0.0.1:${port}/d1`, "100"], dir);
    await run(["swift-ring-builder", `${kind}.builder`, "rebalance"], dir);
    if (!existsSync(join(dir, `${kind}.ring.gz`))) throw new Error(`swift-ring-builder made no ${kind}.ring.gz in ${dir}`);
  }
  writeFileSync(join(dir, "proxy.conf"), proxyConf(dir, proxy, memcached));

  const commands = [
    `memcached -l 127.0.0.1 -p ${memcached} -U 0 -m 16 -u ${user()}`,
    "swift-account-server account.conf",
    "swift-container-server container.conf",
    "swift-object-server object.conf",
    "swift-proxy-server proxy.conf",
  ];
  const cleanup = `kill -KILL $(cat pids); rm -rf "${dir}"`;
  const script = [
    `trap '${cleanup}; exit' TERM INT HUP`,
    ...commands.map((cmd, i) => `${cmd} >log${i}.txt 2>&1 & echo $! >>pids`),
    `tail --pid=${process.pid} -s 0.2 -f /dev/null`, // returns when the test run ends, however it ends
    cleanup,
  ].join("\n");
  // Not this process's child (its own session): bun test kills a timed-out test's children, which would take
  // Swift from every later test file.
  Bun.spawnSync(["sh", "-c", 'setsid sh -c "$0" </dev/null >/dev/null 2>&1 &', script], { cwd: dir });

  const endpoint = `http://127.0.0.1:${proxy}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    const token = await authToken(endpoint).catch(() => null);
    if (token !== null && (await objectServerUp(endpoint, token).catch(() => false))) return { endpoint, token };
    const started = pids();
    const died = started.length === commands.length && !started.every(isAlive);
    if (died || Date.now() > deadline) {
      const logs = commands.map((_, i) => Bun.file(join(dir, `log${i}.txt`)).text().catch(() => ""));
      const message = `Swift did not start:\n${(await Promise.all(logs)).join("\n").slice(-4000)}`;
      throw died ? new ServerDied(message) : new Error(message);
    }
    await Bun.sleep(100);
  }
}

/** Every server is up once an object can be stored (the container and object servers answer 503 until then). */
async function objectServerUp(endpoint: string, token: string): Promise<boolean> {
  const container = `${endpoint}/v1/AUTH_test/started`;
  const headers = { "X-Auth-Token": token };
  return (await fetch(container, { method: "PUT", headers })).ok && (await fetch(`${container}/probe`, { method: "PUT", headers, body: "x" })).ok;
}

/** tempauth's token, once the proxy answers /healthcheck and its account is reachable (the account server is up). */
async function authToken(endpoint: string): Promise<string | null> {
  if (!(await fetch(`${endpoint}/healthcheck`)).ok) return null;
  const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { "X-Storage-User": SWIFT_ACCESS_KEY, "X-Storage-Pass": SWIFT_SECRET_KEY } });
  const token = auth.headers.get("X-Auth-Token");
  if (!auth.ok || token === null) return null;
  const account = await fetch(`${endpoint}/v1/AUTH_test`, { method: "HEAD", headers: { "X-Auth-Token": token } });
  return account.ok ? token : null;
}
