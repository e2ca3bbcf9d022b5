/**
 * Both schemas' owner and watch rows carry the records of src/store/model/owner.ts and the ports (checked by
 * `npx tsc --noEmit`): the model's fields, column for column, with the same types.
 */
import { expect, test } from "bun:test";
import type * as pg from "../../src/db/pg/schema.ts";
import type * as sqlite from "../../src/db/schema.ts";
import type { ApiToken, LinkedPlayer, LoginFailures } from "../../src/store/model/owner.ts";
import type { NudgePlayer } from "../../src/store/ports/nudges.ts";
import type { WatchRule } from "../../src/store/ports/watch.ts";
import { fits, type Same } from "../helpers/model-fit.ts";

/** The row's columns the record names, as the schema types them. */
type Fields<Row, Record> = Pick<Row, keyof Record & keyof Row>;
type Fit<Table extends { $inferSelect: unknown }, Record> = Same<Fields<Table["$inferSelect"], Record>, Record>;
/** A link's token is stored sealed (`sealedToken`), never as the record's clear `token`. */
type StoredLink = Omit<LinkedPlayer, "token">;

test("SQLite's and PostgreSQL's owner rows fit the model's records", () => {
  const sqliteRows: [Fit<typeof sqlite.apiTokens, ApiToken>, Fit<typeof sqlite.players, StoredLink>, Fit<typeof sqlite.loginFailures, LoginFailures>] = [true, true, true];
  const pgRows: [Fit<typeof pg.apiTokens, ApiToken>, Fit<typeof pg.players, StoredLink>, Fit<typeof pg.loginFailures, LoginFailures>] = [true, true, true];
  expect(fits(...sqliteRows, ...pgRows)).toBe(6);
});

test("SQLite's and PostgreSQL's watch rules and nudge players are the ports' records", () => {
  const rows: [Same<typeof sqlite.watchRules.$inferSelect, WatchRule>, Same<typeof pg.watchRules.$inferSelect, WatchRule>, Same<typeof sqlite.nudgePlayers.$inferSelect, NudgePlayer>, Same<typeof pg.nudgePlayers.$inferSelect, NudgePlayer>] = [true, true, true, true];
  expect(fits(...rows)).toBe(4);
});
