/**
 * The read models' contract, the same tests on both stores: SQLite (the default) and a hub's PostgreSQL, over rows
 * inserted through each dialect's schema: the answers are equal to the field, 19-digit player ids exact as strings,
 * JSON decoded. The notify stage's read: the save and its archive.
 */
import { expect, test } from "bun:test";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";
import { digest, MAPS, PLAYER, readModelRows, T0 } from "../helpers/read-models-contract.ts";

describeEachStore("read models", (s) => {
  const { save, archived } = readModelRows(s);

  test("notify: the save without its bytes and its archive, JSON decoded; none without an archive", async () => {
    const outputs = { version: 2, partial: false } as unknown as SaveOutputs;
    const id = await archived(PLAYER, T0, MAPS, { outputs, dropsFingerprint: "f".repeat(64), region: "en" });
    const subject = await s.stores.notifyReads.subject(id);
    expect(subject?.save).toEqual({
      id,
      sha256: expect.any(String),
      playerId: PLAYER,
      source: "upload",
      size: expect.any(Number),
      receivedAt: T0,
      outputs,
      dropsFingerprint: "f".repeat(64),
      repeatOf: null,
      region: "en",
      dataType: "mysekai",
      partial: false,
    });
    expect(subject?.archive).toEqual({ saveId: id, playerId: PLAYER, relPath: `by-id/${PLAYER}/${id}`, token: `token-${id}`, files: MAPS, digest: digest(`find ${id}`), createdAt: T0 });
    expect(await s.stores.notifyReads.subject(await save(PLAYER, T0 + 1))).toBeNull();
    expect(await s.stores.notifyReads.subject(9999)).toBeNull();
  });
});
