/** DATABASE_URL selects a hub's PostgreSQL; its credentials never reach the process's output (host and database only). */
import { describe, expect, test } from "bun:test";
import { startService } from "../../scripts/lib/service-process.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { hubSettings } from "../helpers/hub-link-key.ts";

describe.skipIf(POSTGRES_MISSING !== null)("DATABASE_URL", () => {
  test("a process started on PostgreSQL names postgres://host/db and never the password", async () => {
    // The throwaway server trusts every local connection: the password is carried, never checked.
    const password = "hub-Secret-9f3";
    const url = new URL(await databaseForThisFile("empty"));
    url.password = password;
    const service = await startService({ env: { ...hubSettings(url.href), NOTIFY_DEFAULT: "none" } });
    try {
      expect(service.output()).toContain(`db=postgres://${url.host}${url.pathname}`);
      expect(service.output()).not.toContain(password);
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    } finally {
      await service.stop();
      service.cleanup();
    }
    expect(service.output()).not.toContain(password);
  }, 60_000);
});
