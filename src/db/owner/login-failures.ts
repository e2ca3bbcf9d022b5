/**
 * Wrong owner tokens per peer, written once for both stores (src/db/dialect/): stale records go at each
 * failure, at most MAX_PEERS are kept (the one that failed longest ago goes first; a known peer never evicts
 * another). A failure reads and writes its peer's count under the table's lock: guesses arriving at once on
 * several processes are each counted.
 */
import type { LoginFailures } from "../../store/model/owner.ts";
import type { LoginFailureRecords } from "../../store/ports/owner.ts";
import { first, lock, read, run, type Statements } from "../dialect/statements.ts";

export const MAX_PEERS = 4096;

const OF = read<LoginFailures>(`SELECT failures, last_failure AS "lastFailure" FROM login_failures WHERE peer = $1`, { lastFailure: "int" });
const STALE = read(`DELETE FROM login_failures WHERE last_failure < $1`);
const COUNT = read<{ n: number }>(`SELECT count(*) AS "n" FROM login_failures`, { n: "int" });
const DROP_OLDEST = read(`DELETE FROM login_failures WHERE peer IN (SELECT peer FROM login_failures ORDER BY last_failure LIMIT $1)`);
const RECORD = read(
  `INSERT INTO login_failures (peer, failures, last_failure) VALUES ($1, $2, $3)
   ON CONFLICT (peer) DO UPDATE SET failures = excluded.failures, last_failure = excluded.last_failure`,
);
const CLEAR = read(`DELETE FROM login_failures WHERE peer = $1`);

export function loginFailureRecords(db: Statements): LoginFailureRecords {
  return {
    of: async (peer) => (await first(db, OF, [peer])) ?? undefined,
    record: (peer, now, forgetBefore, count) =>
      db.transaction(function* () {
        yield* lock("login_failures", "");
        yield* run(STALE, [forgetBefore]);
        const current = (yield* run(OF, [peer]))[0];
        const known = (yield* run(COUNT, []))[0]!.n;
        if (known >= MAX_PEERS && current === undefined) yield* run(DROP_OLDEST, [known - MAX_PEERS + 1]);
        yield* run(RECORD, [peer, count(current), now]);
      }),
    clear: async (peer) => void (await db.all(CLEAR, [peer])),
  };
}
