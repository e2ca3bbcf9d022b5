/** The served file names and each app's install link (forms in src/capture/setup-files.ts, with sources). */
import { describe, expect, test } from "bun:test";
import { installLink, moduleUrl, parseSetupFile, PROXY_APPS, scriptUrl } from "../../src/capture/setup-files.ts";

const URL_ = "https://ingest.example/setup/tok_0123456789abcdef/jp/surge.sgmodule";

describe("setup file names", () => {
  test("each app's module, its -full variant and its script parse back; other names do not", () => {
    for (const app of PROXY_APPS) {
      for (const full of [false, true]) {
        const name = moduleUrl("r", "jp", app, full).slice("r/jp/".length);
        expect(parseSetupFile(name)).toEqual({ kind: "module", app, full });
      }
      expect(parseSetupFile(scriptUrl("r", "jp", app).slice("r/jp/".length))).toEqual({ kind: "script", app });
    }
    for (const bad of ["surge.plugin", "surge-full.js", "clash.yaml", "surge.sgmodule.js", "../surge.sgmodule", "SURGE.sgmodule", ""]) {
      expect(parseSetupFile(bad)).toBeNull();
    }
  });
});

describe("install links", () => {
  test("Surge, Shadowrocket, Loon and Stash carry the URL-encoded module URL", () => {
    const encoded = encodeURIComponent(URL_);
    expect(installLink("surge", URL_, "jp")).toBe(`surge:///install-module?url=${encoded}`);
    expect(installLink("shadowrocket", URL_, "jp")).toBe(`shadowrocket://install?module=${encoded}`);
    expect(installLink("loon", URL_, "jp")).toBe(`loon://import?plugin=${encoded}`);
    expect(installLink("stash", URL_, "jp")).toBe(`stash://install-override?url=${encoded}`);
  });

  test("Quantumult X gets URL-encoded JSON naming the module as a rewrite_remote", () => {
    const link = installLink("quantumultx", URL_, "tw");
    const prefix = "quantumult-x:///add-resource?remote-resource=";
    expect(link.startsWith(prefix)).toBe(true);
    const resource = JSON.parse(decodeURIComponent(link.slice(prefix.length)));
    expect(resource).toEqual({ rewrite_remote: [`${URL_}, tag=MySekai capture (TW), update-interval=86400, opt-parser=false, enabled=true`] });
  });
});
