/**
 * Owner login sessions in the store, written once for both stores (src/db/dialect/): any process answers a
 * session another opened. Rows hold the sha256 of the cookie's id, so a copy of the database opens no session.
 * A change of ADMIN_TOKEN, seen at a start, ends them all (the token's keyed fingerprint is kept to see it).
 * Bounded: past MAX_SESSIONS the one closest to expiry goes; logins take the table's lock, so that processes
 * opening sessions at once count the same rows and never pass the cap; reads never wait for it.
 */
import type { TokenSeal } from "../../link-key.ts";
import type { SessionRecords } from "../../store/ports/owner.ts";
import { first, lock, read, run, type Statements } from "../dialect/statements.ts";
import { PUT, SETTING } from "./setup-tokens.ts";

export const MAX_SESSIONS = 256;

const EXPIRED = read(`DELETE FROM owner_sessions WHERE expires_at <= $1`);
const COUNT = read<{ n: number }>(`SELECT count(*) AS "n" FROM owner_sessions`, { n: "int" });
const DROP_OLDEST = read(`DELETE FROM owner_sessions WHERE id_hash IN (SELECT id_hash FROM owner_sessions ORDER BY expires_at LIMIT $1)`);
const OPEN = read(`INSERT INTO owner_sessions (id_hash, expires_at) VALUES ($1, $2)`);
const IS_OPEN = read<{ idHash: string }>(`SELECT id_hash AS "idHash" FROM owner_sessions WHERE id_hash = $1 AND expires_at > $2`);
const CLOSE = read(`DELETE FROM owner_sessions WHERE id_hash = $1`);
const CLOSE_ALL = read<{ idHash: string }>(`DELETE FROM owner_sessions RETURNING id_hash AS "idHash"`);
/** The keyed fingerprint of the ADMIN_TOKEN the sessions were opened under (a `settings` row, setup-tokens.ts's table). */
const BOUND_TO = "owner_sessions_token";

export function sessionRecords(db: Statements, seal: TokenSeal): SessionRecords {
  return {
    endIfTokenChanged: (adminToken, now = Date.now()) =>
      db.transaction(function* () {
        yield* lock("owner_sessions", "");
        const fingerprint = seal.fingerprint(adminToken ?? "");
        const [bound] = yield* run(SETTING, [BOUND_TO]);
        if (bound?.value === fingerprint) return 0;
        // Ended, not only unopenable: a token changed back later must not revive them.
        yield* run(PUT, [BOUND_TO, fingerprint, now]);
        return (yield* run(CLOSE_ALL, [])).length;
      }),
    open: (idHash, expiresAt, now) =>
      db.transaction(function* () {
        yield* lock("owner_sessions", "");
        yield* run(EXPIRED, [now]);
        const open = (yield* run(COUNT, []))[0]!.n;
        if (open >= MAX_SESSIONS) yield* run(DROP_OLDEST, [open - MAX_SESSIONS + 1]);
        yield* run(OPEN, [idHash, expiresAt]);
      }),
    isOpen: async (idHash, now) => (await first(db, IS_OPEN, [idHash, now])) !== null,
    close: async (idHash) => void (await db.all(CLOSE, [idHash])),
    closeAll: async () => (await db.all(CLOSE_ALL, [])).length,
  };
}
