/**
 * A push whose record fails is recorded again, never sent again: the database refuses the delivery's `sent` once
 * (a trigger, on SQLite and on a hub's PostgreSQL) after the receiver answered, and the receiver still gets one push.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { deploymentHooks, deployments, run } from "../helpers/deployments.ts";
import { reads } from "../helpers/store-reads.ts";
import { eventually, startServer } from "../helpers/in-process.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptedSave, testKeys, uploadSave } from "../helpers/saves.ts";

setDefaultTimeout(60_000);
const { pair, env: keyEnv } = testKeys();
let receiver: RecordingServer;
beforeAll(async () => void (receiver = await startRecordingServer({ defaultResponse: { status: 200, body: "ok" } })));
afterAll(() => receiver.stop());

/** Refuses a delivery's move to `sent` while fault_record_fails holds a row (a real error of the database). */
const FAULT = {
  sqlite: [
    "CREATE TABLE fault_record_fails (n INTEGER)",
    `CREATE TRIGGER fault_record BEFORE UPDATE OF state ON deliveries WHEN NEW.state = 'sent' AND EXISTS (SELECT 1 FROM fault_record_fails)
     BEGIN SELECT RAISE(ABORT, 'injected: the record failed'); END`,
  ],
  pg: [
    "CREATE TABLE fault_record_fails (n int)",
    `CREATE FUNCTION fault_record() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF NEW.state = 'sent' AND EXISTS (SELECT 1 FROM fault_record_fails) THEN RAISE EXCEPTION 'injected: the record failed'; END IF;
       RETURN NEW; END $$`,
    "CREATE TRIGGER fault_record BEFORE UPDATE ON deliveries FOR EACH ROW EXECUTE FUNCTION fault_record()",
  ],
};

for (const deployment of deployments("pushrecord")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    const { settings, servers } = deploymentHooks(deployment);

    test("a push whose record fails is recorded again and never sent again", async () => {
      receiver.reset();
      const server = await startServer({ env: { ...settings, ...keyEnv, JOB_BACKOFF_MS: "100,100,100", NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${receiver.url}/hook` } });
      servers.push(server);
      for (const statement of deployment.hub ? FAULT.pg : FAULT.sqlite) await run(deployment, server, statement);
      await run(deployment, server, "INSERT INTO fault_record_fails VALUES (1)");

      const uploadId = crypto.randomUUID();
      expect((await uploadSave(server.url, encryptedSave(pair), uploadId)).status).toBe(200);
      await receiver.waitForRequests(1, 30_000);
      // The receiver answered and the record was refused: let the database take it from now on.
      await server.waitForOutput("injected: the record failed", 30_000);
      await run(deployment, server, "DELETE FROM fault_record_fails");

      const store = reads(server, deployment);
      const saveId = (await store.saveOfUpload(uploadId))!;
      await eventually(async () => (await store.job(saveId))?.state === "done", 30_000, "notify done");
      expect((await store.pushes(saveId)).map(({ state, attempts }) => ({ state, attempts }))).toEqual([{ state: "sent", attempts: 1 }]);
      expect(receiver.requestsTo("/hook")).toHaveLength(1);
    });
  });
}
