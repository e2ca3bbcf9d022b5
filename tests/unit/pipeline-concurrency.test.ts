/** Drawing and waiting apart (issue 46): the slots and workers a process gets, and the draw tickets' bound. */
import { expect, test } from "bun:test";
import { DrawTickets, drawingAtOnce, drawingStages, hubConnections, jobsInFlight } from "../../src/pipeline/concurrency.ts";

const settings = (concurrency: number, inFlight: number | null, kind: "sqlite" | "postgres") =>
  ({ pipeline: { concurrency, inFlight }, database: kind === "sqlite" ? { kind, path: "x" } : { kind, url: "postgres://h/db", host: "h", database: "db", password: null } }) as unknown as Parameters<typeof jobsInFlight>[0];

test("PIPELINE_CONCURRENCY slots unless PIPELINE_IN_FLIGHT says more (a hub with far stores), never below the workers", () => {
  expect([drawingAtOnce(settings(2, null, "sqlite"), 2), jobsInFlight(settings(2, null, "sqlite"), 2)]).toEqual([1, 2]);
  expect([drawingAtOnce(settings(2, null, "postgres"), 2), jobsInFlight(settings(2, null, "postgres"), 2), drawingStages(settings(2, null, "postgres"), 2)]).toEqual([1, 2, 2]);
  expect(jobsInFlight(settings(12, null, "postgres"), 16)).toBe(12);
  expect([jobsInFlight(settings(2, 8, "postgres"), 2), drawingStages(settings(2, 8, "postgres"), 2)]).toEqual([8, 3]);
  expect(jobsInFlight(settings(2, 20, "postgres"), 2)).toBe(20);
  expect(jobsInFlight(settings(4, 1, "sqlite"), 8)).toBe(4);
  // SQLite's two slots never wait for a ticket: its pipeline runs as before.
  expect(drawingStages(settings(2, null, "sqlite"), 2)).toBe(2);
  expect(hubConnections(settings(2, 20, "postgres"))).toBe(28);
});

test("draw tickets: a take past the count waits for a release; a release given twice frees one ticket only", async () => {
  const tickets = new DrawTickets(2);
  const first = await tickets.take();
  await tickets.take();
  let third = false;
  const waiting = tickets.take().then((release) => {
    third = true;
    return release;
  });
  let fourth = false;
  void tickets.take().then(() => (fourth = true));
  await Bun.sleep(0);
  expect(third).toBe(false);
  first();
  first();
  await waiting;
  await Bun.sleep(0);
  expect([third, fourth]).toEqual([true, false]);
});
