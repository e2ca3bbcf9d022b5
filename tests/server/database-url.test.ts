/** DATABASE_URL's credentials never reach the process's output: what it prints names the host and database only. */
import { expect, test } from "bun:test";
import { startService } from "../../scripts/lib/service-process.ts";

test("a start with DATABASE_URL prints postgres://host/db and never the user's password", async () => {
  const password = "hub-Secret-9f3";
  // Until PostgreSQL is wired, the start refuses DATABASE_URL (the launcher's error carries the process's output).
  const output = await startService({ env: { DATABASE_URL: `postgresql://hub:${password}@127.0.0.1:1/hubdb?application_name=x`, NOTIFY_DEFAULT: "none" } }).then(
    async (service) => {
      await service.stop();
      service.cleanup();
      return service.output();
    },
    (error: Error) => error.message,
  );
  expect(output).toContain("postgres://127.0.0.1:1/hubdb");
  expect(output).not.toContain(password);
});
