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
  // Every push channel, and the default route.
  const channels = ["TELEGRAM_BOT_TOKEN", "TELEGRAM_CHAT_ID", "DISCORD_WEBHOOK_URL", "ONEBOT_URL", "ONEBOT_TOKEN", "ONEBOT_TARGET", "WEBHOOK_URL", "WEBHOOK_SECRET", "BARK_SERVER", "NOTIFY_DEFAULT"];
  expect(Object.keys(optional)).toEqual(expect.arrayContaining(channels));
  expect(() => loadConfig(optional)).not.toThrow();
  const sources = ["index", "admin", "endpoints", "notify", "maps", "owner-locale"].map((name) => read(`src/config/${name}.ts`)).join("\n");
  for (const name of Object.keys(optional)) expect(sources).toContain(`"${name}"`);
});

test("npm install has no install script left to review: bun's runs (it puts the runtime's binary in place), esbuild's is declined (its binary works without it)", () => {
  const pkg = JSON.parse(read("package.json"));
  expect(pkg.allowScripts).toEqual({ bun: true, esbuild: false });
  const listed = Bun.spawnSync(["npm", "install-scripts", "ls"], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
  expect(listed.stdout.toString() + listed.stderr.toString()).toContain("No packages with unreviewed install scripts");
});

test("package-lock.json is what npm install writes: a fresh clone stays clean after the README's npm install", () => {
  // npm records whether the project itself has an install script (ours patches the postgres client); a lock that
  // disagrees is rewritten by the first install, and the clone's `git pull` then meets a local change.
  const pkg = JSON.parse(read("package.json"));
  const lock = JSON.parse(read("package-lock.json"));
  const ownScripts = ["preinstall", "install", "postinstall"].some((name) => name in pkg.scripts);
  expect(lock.packages[""].hasInstallScript === true).toBe(ownScripts);
  expect(lock.packages[""].dependencies).toEqual(pkg.dependencies);
  expect(lock.packages[""].devDependencies).toEqual(pkg.devDependencies);
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

test("compose's own environment wins over .env for the address, port and folders its mappings rely on", () => {
  const service = (Bun.YAML.parse(read("compose.yaml")) as { services: Record<string, ComposeService & { ports?: string[]; volumes?: string[] }> }).services["mysekai-ingest"]!;
  expect(service.env_file).toBe(".env");
  const env = envOf(service);
  const finalStage = read("Dockerfile").split(/^FROM /m).at(-1)!;
  const imageEnv = Object.fromEntries([...finalStage.matchAll(/\b(HOST|PORT|DATA_DIR|CONFIG_DIR)=(\S+)/g)].map((match) => [match[1], match[2]]));
  expect(Object.keys(imageEnv).sort()).toEqual(["CONFIG_DIR", "DATA_DIR", "HOST", "PORT"]);
  for (const [name, value] of Object.entries(imageEnv)) expect([name, String(env[name])]).toEqual([name, String(value)]);
  expect(service.ports?.every((mapping) => mapping.endsWith(`:${env.PORT}`))).toBe(true);
  expect(service.volumes).toEqual(expect.arrayContaining([`mysekai-data:${env.DATA_DIR}`, `./config:${env.CONFIG_DIR}:ro`]));
});

test("the owner commands under the systemd unit (docs/deploy.md) run as its dynamic user, with its folders and settings", () => {
  const unit = read("deploy/mysekai-ingest.service");
  const helper = /mysekai-cli\(\) \{[\s\S]+?\n\}/.exec(read("docs/deploy.md"))?.[0] ?? "";
  for (const setting of ["DynamicUser=yes", "StateDirectory=mysekai-ingest", "ConfigurationDirectory=mysekai-ingest", "EnvironmentFile=/etc/mysekai-ingest.env"]) {
    expect([setting, unit.includes(`\n${setting}\n`), helper.includes(`-p ${setting}`)]).toEqual([setting, true, true]);
  }
  for (const variable of /^Environment=(DATA_DIR=\S+) (CONFIG_DIR=\S+)$/m.exec(unit)!.slice(1)) expect(helper).toContain(`-E ${variable}`);
  expect(helper).toContain(`--working-directory=${/^WorkingDirectory=(\S+)$/m.exec(unit)![1]}`);
});

interface ComposeService {
  image?: string;
  build?: string;
  env_file?: string | string[];
  environment?: Record<string, string> | string[];
  healthcheck?: { test?: string[] };
}

const hub = () => Bun.YAML.parse(read("deploy/compose.hub.yml")) as { services: Record<string, ComposeService> };
const envOf = (service: ComposeService): Record<string, string> => {
  // The file uses the map form; a list would hide its values from the checks below.
  expect(Array.isArray(service.environment)).toBe(false);
  return (service.environment ?? {}) as Record<string, string>;
};
const interpolated = (value: string) => /^\$\{[A-Z_]+:\?[^}]*\}$/.test(value);

test("the hub example runs two or more replicas of the image on the same DATABASE_URL and ARCHIVE_URL, each health-checked", () => {
  const services = hub().services;
  const replicas = Object.values(services).filter((service) => service.image === "mysekai-ingest:latest");
  expect(replicas.length).toBeGreaterThanOrEqual(2);
  const shared = (service: ComposeService) => {
    const env = envOf(service);
    return { build: service.build, env_file: service.env_file, ...Object.fromEntries(["DATABASE_URL", "LINK_KEY", "ARCHIVE_URL", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "TRUST_PROXY"].map((name) => [name, env[name]])) };
  };
  for (const replica of replicas) expect(shared(replica)).toEqual(shared(replicas[0]!));
  const env = envOf(replicas[0]!);
  expect(env.DATABASE_URL).toStartWith("postgres://");
  expect(env.ARCHIVE_URL).toStartWith("s3://");
  // A hub refuses to start without it: each replica would seal players' links with its own DATA_DIR/link.key.
  expect(interpolated(String(env.LINK_KEY))).toBe(true);
  // Each replica listens on its own port, and its health check asks that port.
  const ports = replicas.map((replica) => envOf(replica).PORT);
  expect(new Set(ports).size).toBe(replicas.length);
  for (const replica of replicas) expect(replica.healthcheck?.test?.join(" ")).toContain(`127.0.0.1:${envOf(replica).PORT}/healthz`);
  // The load balancer sends to every replica's port.
  const caddyfile = read("deploy/Caddyfile.hub");
  for (const port of ports) expect(caddyfile).toContain(`127.0.0.1:${port}`);
  // Every long-running service is health-checked: PostgreSQL 15, the S3 store, the proxy; only the bucket's one-shot is not.
  expect(services.postgres?.image).toBe("postgres:15");
  for (const [name, service] of Object.entries(services)) if (name !== "bucket") expect([name, (service.healthcheck?.test?.length ?? 0) > 1]).toEqual([name, true]);
  // The replicas' settings are ones the service reads, and valid (interpolations filled in).
  const filled = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value).replace(/\$\{[^}]+\}/g, "hub0secret0value0long0enough0for0LINK_KEY")]));
  const config = loadConfig({ ...filled, DATA_DIR: "/tmp/mysekai-hub-example" });
  expect([config.database.kind, config.archive.kind, config.trustProxy]).toEqual(["postgres", "s3", true]);
});

test("the hub example holds no secret value: each comes from deploy/hub.env, whose example names them all and is kept out of git and the image", () => {
  const text = read("deploy/compose.hub.yml");
  for (const [name, service] of Object.entries(hub().services)) {
    for (const [key, value] of Object.entries(envOf(service))) {
      if (/PASSWORD|SECRET|TOKEN|AES_|ACCESS_KEY|LINK_KEY/.test(key)) expect({ name, key, value: interpolated(String(value)) }).toEqual({ name, key, value: true });
      // A URL's password is interpolated too.
      const userinfo = /^[a-z]+:\/\/[^:@/]*:([^@]*)@/.exec(String(value))?.[1];
      if (userinfo !== undefined) expect({ name, key, password: interpolated(userinfo) }).toEqual({ name, key, password: true });
    }
  }
  const example = read("deploy/hub.env.example");
  const names = new Set([...text.matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]!));
  for (const name of names) expect(example).toMatch(new RegExp(`^${name}=`, "m"));
  // The example's secrets are blank: nobody runs a hub on a password from the repository.
  for (const name of ["POSTGRES_PASSWORD", "MINIO_ROOT_PASSWORD", "LINK_KEY"]) expect(example).toMatch(new RegExp(`^${name}=$`, "m"));
  expect(read(".gitignore").split("\n")).toContain("/deploy/hub.env");
  expect(read(".dockerignore").split("\n")).toContain("deploy/hub.env");
});
