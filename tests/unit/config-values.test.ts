/** Values that the served capture scripts bake in are checked at start, not on every module fetch. */
import { expect, test } from "bun:test";
import { describeArchive } from "../../src/config/archive.ts";
import { describeDatabase } from "../../src/config/database.ts";
import { ConfigError, loadConfig, secretsOf } from "../../src/config/index.ts";
import { MIB } from "../../src/contract.ts";
import { HUB_LINK_KEY } from "../helpers/hub-link-key.ts";

test("PUBLIC_BASE_URL must be a base URL: no query, fragment or credentials", () => {
  expect(loadConfig({ PUBLIC_BASE_URL: "https://sekai.example.com/base/" }).publicBaseUrl).toBe("https://sekai.example.com/base");
  for (const bad of ["https://sekai.example.com/?x=1", "https://sekai.example.com/#top", "https://user:pw@sekai.example.com"]) {
    expect(() => loadConfig({ PUBLIC_BASE_URL: bad })).toThrow(ConfigError);
  }
});

test("UPLOAD_TOKEN must be printable ASCII without spaces, and the error never echoes it", () => {
  expect(loadConfig({ UPLOAD_TOKEN: "abc-123_XYZ" }).uploads.token).toBe("abc-123_XYZ");
  for (const bad of ["has space", "ünïcode", "tab\there"]) {
    let message = "";
    try {
      loadConfig({ UPLOAD_TOKEN: bad });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("UPLOAD_TOKEN must be printable ASCII without spaces");
  }
});

test("REPORT_PATH may not take a path the service serves, and the error names the prefix, never a path under it", () => {
  expect(loadConfig({ REPORT_PATH: "/my-capture/x7" }).report.path).toBe("/my-capture/x7");
  for (const [path, prefix] of [["/api/secret-report", "/api/"], ["/public/s3cr3t", "/public/"], ["/p/abc", "/p/"], ["/players/7", "/players/"], ["/setup/x", "/setup/"]]) {
    expect(() => loadConfig({ REPORT_PATH: path })).toThrow(`REPORT_PATH must not be under ${prefix}: the service serves those paths itself`);
  }
  for (const path of ["/api", "/healthz", "/setup", "/players"]) expect(() => loadConfig({ REPORT_PATH: path })).toThrow(`REPORT_PATH must not be ${path}:`);
});

test("ARCHIVE_URL: unset is DATA_DIR/archive; s3://bucket/prefix takes S3_* settings, else AWS_*; the secret is redacted, never echoed", () => {
  expect(loadConfig({ DATA_DIR: "/srv/mysekai" }).archive).toEqual({ kind: "disk", root: "/srv/mysekai/archive" });
  const secret = "very-secret-key/abc+123";
  const s3 = loadConfig({
    ARCHIVE_URL: "s3://hub-archive/region/eu/",
    S3_ENDPOINT: "http://minio.internal:9000",
    S3_ACCESS_KEY_ID: "id-from-s3",
    AWS_ACCESS_KEY_ID: "id-from-aws",
    AWS_SECRET_ACCESS_KEY: secret,
    AWS_REGION: "eu-west-1",
  });
  expect(s3.archive).toEqual({
    kind: "s3",
    bucket: "hub-archive",
    prefix: "region/eu",
    endpoint: "http://minio.internal:9000",
    region: "eu-west-1",
    accessKeyId: "id-from-s3",
    secretAccessKey: secret,
  });
  expect(secretsOf(s3)).toContain(secret);
  expect(describeArchive(s3.archive)).toBe("s3://hub-archive/region/eu at minio.internal:9000");
  for (const bad of ["http://hub-archive/x", "https://AKIAEXAMPLE:pasted-secret@s3.example.com/bucket", "s3://Hub_Archive/x", "s3://hub-archive/a/../b", "s3://hub-archive/a//b", "s3://hub-archive/a b"]) {
    let message = "";
    try {
      loadConfig({ ARCHIVE_URL: bad, S3_SECRET_ACCESS_KEY: secret });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toStartWith("ARCHIVE_URL");
    expect(message).not.toContain(secret);
    expect(message).not.toContain("pasted-secret");
  }
});

test("DATABASE_URL: unset is the SQLite file; postgres:// or postgresql:// selects PostgreSQL; the credentials are redacted, never echoed", () => {
  expect(loadConfig({ DATA_DIR: "/srv/mysekai" }).database).toEqual({ kind: "sqlite", path: "/srv/mysekai/ingest.sqlite" });
  const password = "pa:ss/w@rd";
  const url = `postgres://hub:${encodeURIComponent(password)}@db.internal:5433/mysekai?sslmode=disable`;
  const pg = loadConfig({ DATABASE_URL: url, LINK_KEY: HUB_LINK_KEY });
  expect(pg.database).toEqual({ kind: "postgres", url, host: "db.internal:5433", database: "mysekai", password });
  expect(describeDatabase(pg.database)).toBe("postgres://db.internal:5433/mysekai");
  expect(secretsOf(pg)).toEqual(expect.arrayContaining([url, password, encodeURIComponent(password)]));
  const inQuery = loadConfig({ DATABASE_URL: "postgresql://db/hub?user=hub&password=q-secret", LINK_KEY: HUB_LINK_KEY });
  expect(describeDatabase(inQuery.database)).toBe("postgres://db/hub");
  expect(secretsOf(inQuery)).toContain("q-secret");
  for (const bad of [`mysql://hub:${password}@db/x`, `postgres://hub:${password}@db.internal:5433/`, `postgres://hub:${password}@:5433/x`, `postgres://hub:${password}@db/a/b`, "sqlite:///data/x.sqlite", "db.internal/mysekai"]) {
    let message = "";
    try {
      loadConfig({ DATABASE_URL: bad });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toStartWith("DATABASE_URL");
    expect(message).not.toContain(password);
    expect(message).not.toContain("pa:ss");
  }
});

test("MAP_COMMON_LABELS: none by default, all on request, anything else refused at start", () => {
  expect(loadConfig({}).maps.commonLabels).toBe("none");
  expect(loadConfig({ MAP_COMMON_LABELS: "all" }).maps.commonLabels).toBe("all");
  expect(loadConfig({ MAP_COMMON_LABELS: "None" }).maps.commonLabels).toBe("none");
  expect(() => loadConfig({ MAP_COMMON_LABELS: "some" })).toThrow(ConfigError);
});

test("uploads: defaults, the group's values, UPLOAD_TOKEN among the secrets, bad values named", () => {
  expect(loadConfig({}).uploads).toEqual({ maxOpen: 200, maxOpenBytes: 64 * MIB, token: null });
  const config = loadConfig({ UPLOAD_MAX_OPEN: "3", UPLOAD_MAX_OPEN_MB: "1", UPLOAD_TOKEN: "s3cret-upload" });
  expect(config.uploads).toEqual({ maxOpen: 3, maxOpenBytes: MIB, token: "s3cret-upload" });
  expect(secretsOf(config)).toContain("s3cret-upload");
  expect(() => loadConfig({ UPLOAD_MAX_OPEN: "0" })).toThrow(/UPLOAD_MAX_OPEN must be an integer from 1/);
  expect(() => loadConfig({ UPLOAD_MAX_OPEN_MB: "0.5" })).toThrow(/UPLOAD_MAX_OPEN_MB must be a number from 1/);
});
