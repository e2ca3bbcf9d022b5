/**
 * Owner sessions end with the owner's token (issue 49, point 2): a session opened under one ADMIN_TOKEN opens
 * nothing once the service restarts with another; `cli sessions end` and the status page's "log out everywhere"
 * end every session at once.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";

const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });

async function login(server: RunningServer, token: string): Promise<string> {
  const answer = await fetch(`${server.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  expect(answer.status).toBe(303);
  return answer.headers.get("set-cookie")!.split(";")[0]!;
}

/** The status page with this cookie: 200 when the session opens it. */
const statusWith = async (server: RunningServer, cookie: string) => (await fetch(`${server.url}/`, { headers: { cookie, accept: "text/html" }, redirect: "manual" })).status;

describe("owner sessions", () => {
  test("a session opened under the old ADMIN_TOKEN opens nothing after a restart with a new one", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "owner-sessions-"));
    const before = await start({ ADMIN_TOKEN: "old-owner-token-1234567890" }, dataDir);
    const cookie = await login(before, "old-owner-token-1234567890");
    expect(await statusWith(before, cookie)).toBe(200);
    await before.stop();
    const after = await start({ ADMIN_TOKEN: "new-owner-token-0987654321" }, dataDir);
    expect(await statusWith(after, cookie)).toBe(401);
    const minted = await fetch(`${after.url}/status/api-tokens`, { method: "POST", headers: { cookie, origin: after.url, "content-type": "application/x-www-form-urlencoded" }, body: "name=stolen" });
    expect(minted.status).toBe(401);
    // The same token again after a restart keeps its sessions.
    const kept = await login(after, "new-owner-token-0987654321");
    await after.stop();
    const again = await start({ ADMIN_TOKEN: "new-owner-token-0987654321" }, dataDir);
    expect(await statusWith(again, kept)).toBe(200);
  });

  test("a token changed and changed back revives none of the sessions opened before the change", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "owner-sessions-"));
    const [first, second] = ["first-owner-token-1234567890", "second-owner-token-0987654321"];
    const before = await start({ ADMIN_TOKEN: first }, dataDir);
    const cookie = await login(before, first);
    expect(await statusWith(before, cookie)).toBe(200);
    await before.stop();
    const changed = await start({ ADMIN_TOKEN: second }, dataDir);
    const log = changed.output();
    await changed.stop();
    const back = await start({ ADMIN_TOKEN: first }, dataDir);
    expect(await statusWith(back, cookie)).toBe(401);
    expect(log).toContain("the owner's token or the link key is not the one the sessions were opened under (or this is the first start that checks): every owner session ended sessions=1");
  });

  test("`cli sessions end` ends every session; so does the page's log out everywhere", async () => {
    const server = await start({ ADMIN_TOKEN: "owner-token-abcdefghijklmnop" });
    const [phone, laptop] = [await login(server, "owner-token-abcdefghijklmnop"), await login(server, "owner-token-abcdefghijklmnop")];
    expect([await statusWith(server, phone), await statusWith(server, laptop)]).toEqual([200, 200]);
    const ended = await ownerCli(server, "sessions", "end");
    expect([ended.code, ended.out.trim()]).toEqual([0, "2 owner session(s) ended; log in again with ADMIN_TOKEN"]);
    expect([await statusWith(server, phone), await statusWith(server, laptop)]).toEqual([401, 401]);

    const [here, elsewhere] = [await login(server, "owner-token-abcdefghijklmnop"), await login(server, "owner-token-abcdefghijklmnop")];
    expect(await (await fetch(`${server.url}/`, { headers: { cookie: here, "accept-language": "en" } })).text()).toContain("log out everywhere");
    const out = await fetch(`${server.url}/logout/everywhere`, { method: "POST", redirect: "manual", headers: { cookie: here, origin: server.url } });
    expect([out.status, out.headers.get("location")]).toEqual([303, "/login"]);
    expect([await statusWith(server, here), await statusWith(server, elsewhere)]).toEqual([401, 401]);
    expect(server.output()).toContain("owner logged out everywhere sessions=2");
  });
});
