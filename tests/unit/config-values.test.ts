/** Values that the served capture scripts bake in are checked at start, not on every module fetch. */
import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config/index.ts";

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
