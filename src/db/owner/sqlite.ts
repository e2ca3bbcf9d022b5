/**
 * The owner's and players' tables over SQLite: the synchronous functions of their modules, each call done on the
 * event loop's thread before the promise is made (no async callback ever reaches db.transaction).
 */
import type { NudgeStore } from "../../store/ports/nudges.ts";
import type { OwnerStore } from "../../store/ports/owner.ts";
import type { WatchStore } from "../../store/ports/watch.ts";
import { sqliteStatements } from "../dialect/sqlite.ts";
import { nudgeStore } from "./nudges.ts";
import { watchStore } from "./watch.ts";
import { addApiToken, apiTokenGrant, isPlayerPublic, listApiTokens, revokeApiToken, setPlayerPublic } from "./sqlite-data-access.ts";
import { addDataWebhook, listDataWebhooks, removeDataWebhook } from "../deliveries/sqlite-data-webhooks.ts";
import { clearLoginFailures, loginFailuresOf, recordLoginFailures } from "./sqlite-login-failures.ts";
import type { Db } from "../open.ts";
import { closeSession, openSession, sessionOpen } from "./sqlite-sessions.ts";
import { linkedPlayer, linkedPlayers, linkPlayer, playerByToken, recordServedBase, rotateSetupToken, servedBase, setupToken } from "./sqlite-setup-tokens.ts";

export function sqliteOwnerStore(db: Db): OwnerStore {
  return {
    sessions: {
      open: async (idHash, expiresAt, now) => openSession(db, idHash, expiresAt, now),
      isOpen: async (idHash, now) => sessionOpen(db, idHash, now),
      close: async (idHash) => closeSession(db, idHash),
    },
    loginFailures: {
      of: async (peer) => loginFailuresOf(db, peer),
      // The read and the write run back to back on this thread, and the instance lock keeps other processes out.
      record: async (peer, now, forgetBefore, count) => {
        const current = loginFailuresOf(db, peer);
        recordLoginFailures(db, peer, count(current !== undefined && current.lastFailure >= forgetBefore ? current : undefined), now, forgetBefore);
      },
      clear: async (peer) => clearLoginFailures(db, peer),
    },
    links: {
      setupToken: async (now) => setupToken(db, now),
      rotateSetupToken: async (now) => rotateSetupToken(db, now),
      recordServedBase: async (base, now) => recordServedBase(db, base, now),
      servedBase: async () => servedBase(db),
      linkPlayer: async (playerId, name, now) => linkPlayer(db, playerId, name, now),
      playerByToken: async (token) => playerByToken(db, token),
      linkedPlayers: async () => linkedPlayers(db),
      linkedPlayer: async (playerId) => linkedPlayer(db, playerId),
    },
    access: {
      addApiToken: async (name, players, now) => addApiToken(db, name, players, now),
      revokeApiToken: async (name) => revokeApiToken(db, name),
      listApiTokens: async () => listApiTokens(db),
      apiTokenGrant: async (token) => apiTokenGrant(db, token),
      setPlayerPublic: async (playerId, on, now) => setPlayerPublic(db, playerId, on, now),
      isPlayerPublic: async (playerId) => isPlayerPublic(db, playerId),
    },
    webhooks: {
      add: async (url, bearer, now, carries) => addDataWebhook(db, url, bearer, now, carries),
      remove: async (id) => removeDataWebhook(db, id),
      list: async () => listDataWebhooks(db),
    },
  };
}

export const sqliteWatchStore = (db: Db): WatchStore => watchStore(sqliteStatements(db));
export const sqliteNudgeStore = (db: Db): NudgeStore => nudgeStore(sqliteStatements(db));
