import { afterAll, describe, expect, test } from "bun:test";
import { OWNER_PLAYER, ownerApp } from "../helpers/owner-app.ts";
import { dbReads } from "../helpers/store-reads.ts";

const TOKEN = "owner-token-0123456789abcdef";
const withToken = ownerApp({ ADMIN_TOKEN: TOKEN });
const loopbackOnly = ownerApp();
afterAll(() => {
  withToken.cleanup();
  loopbackOnly.cleanup();
});

const html = { accept: "text/html" };
const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;

async function expectNoPlayerData(response: Response) {
  expect(await response.text()).not.toContain(OWNER_PLAYER);
}

describe("owner access with ADMIN_TOKEN", () => {
  test("Authorization: Bearer opens the page and /metrics", async () => {
    const page = await withToken.request("/", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(OWNER_PLAYER);
    expect((await withToken.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test("HTTP Basic with the token as password, any user name", async () => {
    for (const user of ["owner", "", "anyone"]) {
      const page = await withToken.request("/", { headers: { authorization: basic(user, TOKEN) } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(OWNER_PLAYER);
    }
  });

  test("a wrong or missing token never shows player data", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: basic(TOKEN, "wrong") },
      { authorization: "Basic !!!not-base64" },
      { cookie: "mysk_owner=forged" },
      { cookie: `mysk_owner=${TOKEN}` },
    ];
    // Each attempt from a peer of its own: the login throttle (tested below) would answer 429 otherwise.
    for (const [i, headers] of attempts.entries()) {
      const peer = `198.51.100.${10 + i}`;
      const page = await withToken.request("/", { headers: { ...html, ...headers } }, peer);
      expect(page.status).toBe(401);
      await expectNoPlayerData(page);
      const metrics = await withToken.request("/metrics", { headers }, peer);
      expect(metrics.status).toBe(401);
      expect(metrics.headers.get("www-authenticate")).toContain("Basic");
    }
    const wrongLogin = await withToken.request("/login", { method: "POST", headers: { origin: "http://localhost:9478", "content-type": "application/x-www-form-urlencoded" }, body: "token=nope" }, "198.51.100.99");
    expect(wrongLogin.status).toBe(401);
    expect(wrongLogin.headers.get("set-cookie")).toBeNull();
    await expectNoPlayerData(wrongLogin);
  });

  test("the login form sets an HttpOnly SameSite cookie that is not the token, and logout ends it", async () => {
    const login = await withToken.request("/login", {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(login.status).toBe(303);
    const setCookie = login.headers.get("set-cookie")!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(";")[0]!;
    const page = await withToken.request("/", { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(OWNER_PLAYER);

    const logout = await withToken.request("/logout", { method: "POST", headers: { cookie, origin: "http://localhost:9478" } });
    expect(logout.status).toBe(303);
    expect((await withToken.request("/", { headers: { ...html, cookie } })).status).toBe(401);
  });

  test("sessions live in the store: one opened on one process opens the pages of another, logout on one ends it on both; only its hash is stored", async () => {
    const other = ownerApp({ ADMIN_TOKEN: TOKEN, DATA_DIR: withToken.dataDir, CONFIG_DIR: `${withToken.dataDir}/config` });
    try {
      const login = await withToken.request("/login", {
        method: "POST",
        headers: { "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
        body: `token=${encodeURIComponent(TOKEN)}`,
      });
      const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
      expect((await other.request("/", { headers: { ...html, cookie } })).status).toBe(200);
      const stored = await dbReads(other.db).ownerSessionHashes();
      expect(stored.length).toBeGreaterThan(0);
      expect(JSON.stringify(stored)).not.toContain(cookie.split("=")[1]!);
      expect((await other.request("/logout", { method: "POST", headers: { cookie, origin: "http://localhost:9478" } })).status).toBe(303);
      expect((await withToken.request("/", { headers: { ...html, cookie } })).status).toBe(401);
    } finally {
      other.cleanup();
    }
  });

  test("the login throttle lives in the store: a peer that guessed wrong on one process waits on another", async () => {
    const other = ownerApp({ ADMIN_TOKEN: TOKEN, DATA_DIR: withToken.dataDir, CONFIG_DIR: `${withToken.dataDir}/config` });
    try {
      const peer = "198.51.100.77";
      for (let i = 0; i < 5; i++) expect((await withToken.request("/metrics", { headers: { authorization: `Bearer wrong-${i}` } }, peer)).status).toBe(401);
      const refused = await other.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }, peer);
      expect(refused.status).toBe(429);
    } finally {
      other.cleanup();
    }
  });

  test("behind a trusted local proxy the throttle counts the client it forwards for, not the proxy", async () => {
    const proxied = ownerApp({ ADMIN_TOKEN: TOKEN, TRUST_PROXY: "1" });
    try {
      const from = (client: string, token: string) =>
        proxied.request("/metrics", { headers: { authorization: `Bearer ${token}`, "x-forwarded-for": client } }, "127.0.0.1");
      for (let i = 0; i < 5; i++) expect((await from("203.0.113.66", `wrong-${i}`)).status).toBe(401);
      expect((await from("203.0.113.66", TOKEN)).status).toBe(429);
      expect((await from("203.0.113.67", TOKEN)).status).toBe(200);
    } finally {
      proxied.cleanup();
    }
  });

  test("cross-site POSTs are refused even with a valid session or Basic credentials", async () => {
    const login = await withToken.request("/login", { method: "POST", headers: { origin: "http://localhost:9478" }, body: `token=${TOKEN}` });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const refused: Record<string, string>[] = [
      { cookie, "sec-fetch-site": "cross-site" },
      { cookie, "sec-fetch-site": "same-site" },
      { cookie, origin: "https://evil.example" },
      { cookie },
      { authorization: basic("x", TOKEN), origin: "https://evil.example" },
    ];
    for (const headers of refused) {
      const response = await withToken.request("/status/retry", { method: "POST", headers });
      expect(response.status).toBe(403);
    }
    // Login CSRF: a cross-site form cannot log the browser in either.
    expect((await withToken.request("/login", { method: "POST", headers: { origin: "https://evil.example" }, body: `token=${TOKEN}` })).status).toBe(403);
    expect((await withToken.request("/status/retry", { method: "POST", headers: { cookie, origin: "http://localhost:9478" } })).status).toBe(303);
    // A Bearer header is never attached by a browser on its own: scripts and curl need no Origin.
    expect((await withToken.request("/status/retry", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(303);
  });
});

describe("owner access without ADMIN_TOKEN", () => {
  test("loopback clients get the page (IPv4, IPv6, mapped)", async () => {
    for (const peer of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) {
      const page = await loopbackOnly.request("/", {}, peer);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(OWNER_PLAYER);
    }
  });

  test("other clients are refused with no player data, tokens or not", async () => {
    for (const peer of ["203.0.113.7", "10.0.0.2", "::ffff:192.168.1.5", "fe80::1"]) {
      const page = await loopbackOnly.request("/", { headers: { ...html, authorization: `Bearer ${TOKEN}` } }, peer);
      expect(page.status).toBe(403);
      await expectNoPlayerData(page);
      expect((await loopbackOnly.request("/metrics", {}, peer)).status).toBe(403);
    }
  });

  test("a loopback peer forwarding for someone else (a reverse proxy) is refused", async () => {
    const forwarded: Record<string, string>[] = [{ "x-forwarded-for": "198.51.100.4" }, { forwarded: "for=198.51.100.4" }, { "x-real-ip": "198.51.100.4" }];
    for (const headers of forwarded) {
      const page = await loopbackOnly.request("/", { headers }, "127.0.0.1");
      expect(page.status).toBe(403);
      await expectNoPlayerData(page);
    }
  });

  test("a page that pointed its own domain at this machine (DNS rebinding) gets nothing, though its Origin matches", async () => {
    const rebound = { host: "attacker.example:9478", origin: "http://attacker.example:9478" };
    const page = await loopbackOnly.request("/", { headers: rebound }, "127.0.0.1");
    expect(page.status).toBe(403);
    await expectNoPlayerData(page);
    expect((await loopbackOnly.request("/setup", { headers: rebound }, "127.0.0.1")).status).toBe(403);
    expect((await loopbackOnly.request("/status/retry", { method: "POST", headers: rebound }, "127.0.0.1")).status).toBe(403);
    for (const host of ["localhost", "127.0.0.1:9478", "[::1]:9478"]) {
      expect((await loopbackOnly.request("/", { headers: { host } }, "127.0.0.1")).status).toBe(200);
    }
  });

  test("a cross-site POST from a loopback browser is refused", async () => {
    expect((await loopbackOnly.request("/status/retry", { method: "POST", headers: { origin: "https://evil.example" } }, "127.0.0.1")).status).toBe(403);
    expect((await loopbackOnly.request("/status/retry", { method: "POST", headers: { origin: "http://localhost:9478" } }, "127.0.0.1")).status).toBe(303);
  });

  test("/healthz stays open to everyone and shows no player data", async () => {
    const health = await loopbackOnly.request("/healthz");
    expect(health.status).toBe(200);
    await expectNoPlayerData(health);
  });
});
