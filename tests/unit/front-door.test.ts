/**
 * The front door (src/http/front-door.ts, admin/login-throttle.ts): Host parsing, framing, the login throttle over
 * HTTP, redaction before a cut. The throttle's delays on a store run on both stores in owner-store.*.contract.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { FREE_FAILURES } from "../../src/http/admin/login-throttle.ts";
import { parseHost } from "../../src/http/front-door.ts";
import { excerpt } from "../../src/notify/http.ts";
import { ownerApp } from "../helpers/owner-app.ts";

const TOKEN = "owner-token-0123456789abcdef";
const [withToken, loopbackOnly] = [ownerApp({ ADMIN_TOKEN: TOKEN }), ownerApp()];
afterAll(() => [withToken, loopbackOnly].forEach((app) => app.cleanup()));
const LOOPBACK = "127.0.0.1";

describe("Host", () => {
  test("parseHost takes names, IP literals and ports 1-65535, nothing else", () => {
    expect(parseHost("localhost:9478")).toEqual({ name: "localhost", port: 9478 });
    expect(parseHost("[::1]:80")).toEqual({ name: "[::1]", port: 80 });
    expect(parseHost("Example.COM")).toEqual({ name: "example.com", port: null });
    for (const bad of ["a:99999", "localhost:65536", "localhost:0", "[::1]x", "[::1", "", "a b", "127.0.0.1:80@evil", "127.0.0.300", "host:", ":80"]) {
      expect([bad, parseHost(bad)]).toEqual([bad, null]);
    }
  });

  test("a bad Host is 400 on every route, before the owner rule", async () => {
    for (const host of ["a:99999", "localhost:65536", "[::1]x"]) {
      for (const path of ["/", "/setup", "/p/abc", "/setup/abc/jp/surge.sgmodule", "/healthz", "/uploadSaveData"]) {
        const answer = await loopbackOnly.request(path, { headers: { host } }, LOOPBACK);
        expect([host, path, answer.status, await answer.text()]).toEqual([host, path, 400, "bad Host header"]);
      }
    }
  });

  test("the loopback rule takes only exact loopback names with a valid port", async () => {
    for (const host of ["localhost", "localhost:9478", "[::1]:9478", "127.0.0.1", "127.1.2.3:1"]) {
      expect([host, (await loopbackOnly.request("/", { headers: { host } }, LOOPBACK)).status]).toEqual([host, 200]);
    }
    for (const host of ["localhost.", "localhost.evil.example", "[::2]", "127.0.0.1.nip.io", "0x7f.0.0.1x"]) {
      expect([host, (await loopbackOnly.request("/", { headers: { host } }, LOOPBACK)).status]).toEqual([host, 403]);
    }
  });
});

test("every page refuses framing: owner, login, setup, player link, not found", async () => {
  const pages = [
    await loopbackOnly.request("/", {}, LOOPBACK),
    await loopbackOnly.request("/setup", {}, LOOPBACK),
    await loopbackOnly.request("/p/unknown-link", {}, LOOPBACK),
    await withToken.request("/login"),
    await withToken.request("/", { headers: { accept: "text/html" } }),
  ];
  expect(pages.map((page) => page.status)).toEqual([200, 200, 404, 200, 401]);
  for (const page of pages) {
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  }
});

describe("login throttle", () => {
  const form = (token: string) => ({ method: "POST", headers: { "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" }, body: `token=${token}` });

  test("after 5 wrong tokens a peer gets 429 with Retry-After, the right token too; other peers are untouched", async () => {
    const peer = "192.0.2.50";
    for (let i = 0; i < FREE_FAILURES; i++) expect((await withToken.request("/login", form(`wrong-${i}`), peer)).status).toBe(401);
    const refused = await withToken.request("/login", form(TOKEN), peer);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toBe("too many wrong tokens; try again later");
    // Basic credentials from the same peer count the same way.
    const basic = await withToken.request("/", { headers: { authorization: `Basic ${btoa(`x:${TOKEN}`)}` } }, peer);
    expect(basic.status).toBe(429);
    expect((await withToken.request("/login", form(TOKEN), "192.0.2.51")).status).toBe(303);
  });

  test("wrong Bearer tokens on owner routes count towards the throttle", async () => {
    const peer = "192.0.2.60";
    for (let i = 0; i < FREE_FAILURES; i++) expect((await withToken.request("/metrics", { headers: { authorization: `Bearer wrong-${i}` } }, peer)).status).toBe(401);
    expect((await withToken.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }, peer)).status).toBe(429);
  });
});

test("a reply is redacted whole before it is cut: no part of a secret near the cut survives", () => {
  const secret = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
  for (let at = 150; at < 210; at++) {
    const reply = `${"x".repeat(at)} /bot${secret}/sendMessage`;
    const text = excerpt({ secrets: [secret] }, reply);
    expect(text).not.toContain(secret.slice(0, 12));
  }
});
