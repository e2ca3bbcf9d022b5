/**
 * Credentials in a webhook URL (`http://user:pass@…`) are sent as Basic auth; a receiver that echoes its request
 * in a failure gives them back in clear, in base64 and URL-encoded. None of those forms reaches the log, the
 * database or the status page (issue 49, point 5), and the CLI says that the userinfo becomes Basic auth.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli } from "../helpers/owner-cli.ts";
import { reads } from "../helpers/store-reads.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { testKeys, uploadSave } from "../helpers/saves.ts";

const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, JOB_BACKOFF_MS: "600000" });
const HOOK = { user: "hookuser", pass: "p%40ss-Secret-42" };
const CHAT = { user: "chatuser", pass: "chat%2Fpass-99" };
let receiver: RecordingServer;
let server: RunningServer;

/** Every form a user:password may come back in. */
function forms({ user, pass }: { user: string; pass: string }): string[] {
  const out: string[] = [];
  for (const pair of [`${user}:${pass}`, `${user}:${decodeURIComponent(pass)}`]) {
    const base64 = Buffer.from(pair).toString("base64");
    out.push(pair, base64, base64.replace(/=+$/, ""), encodeURIComponent(base64));
  }
  out.push(pass, decodeURIComponent(pass));
  return out;
}

beforeAll(async () => {
  receiver = await startRecordingServer();
  // The receiver answers 500 and echoes its request: its Authorization header among the rest.
  receiver.setDefault("*", (request) => ({ status: 500, body: `refused ${request.target} ${JSON.stringify(request.headers)}`, headers: { "content-type": "text/plain" } }));
  const at = (who: typeof HOOK, path: string) => `http://${who.user}:${who.pass}@${receiver.url.slice("http://".length)}${path}`;
  server = await start({ NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: at(CHAT, "/chat") });
  const added = await ownerCli(server, "data-webhooks", "add", at(HOOK, "/hook/{user_id}"));
  expect(added.code).toBe(0);
  expect(added.out).toContain("the user:password in the URL is sent as HTTP Basic auth");
  expect(added.out).not.toContain(HOOK.pass);
}, 60_000);
afterAll(() => receiver.stop());

describe("webhook URLs with credentials", () => {
  test("an echoing receiver's failure shows no form of the credentials in the log, the database or the status page", async () => {
    expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed: 4990, now: Date.now() }), crypto.randomUUID())).status).toBe(200);
    await eventually(async () => (await reads(server).allPushes()).filter((push) => push.last_error !== null).length === 2, 30_000, "both deliveries failed once");
    // The premise: both went as Basic auth, and both answers echoed it.
    const basic = (who: typeof HOOK) => `Basic ${Buffer.from(`${who.user}:${decodeURIComponent(who.pass)}`).toString("base64")}`;
    expect(receiver.requests.map((r) => r.headers.authorization).sort()).toEqual([basic(CHAT), basic(HOOK)].sort());

    const stored = JSON.stringify([await reads(server).everyColumnOf("deliveries"), await reads(server).jobs()]);
    expect(stored).toContain("refused");
    const page = await (await fetch(`${server.url}/`, { headers: { "accept-language": "en" } })).text();
    expect(page).toContain("refused");
    const log = server.output();
    expect(log).toContain("delivery failed");
    for (const form of [...forms(HOOK), ...forms(CHAT)]) {
      expect({ form, inLog: log.includes(form) }).toEqual({ form, inLog: false });
      expect({ form, inDatabase: stored.includes(form) }).toEqual({ form, inDatabase: false });
      expect({ form, inPage: page.includes(form) }).toEqual({ form, inPage: false });
    }
  });
});
