import { expect, test } from "bun:test";
import { captureFailureKind, errorKind } from "../../src/failure-kind.ts";
import { SaveLimitError } from "../../src/save/limits.ts";
import { INVALID_REASONS } from "../../src/save/open.ts";
import { HarvestRecordError } from "../../src/save/positional.ts";

test("every reason a save fails with has its kind, on the owner's pages and in a player's capture health alike", () => {
  const owner = Object.fromEntries(Object.entries(INVALID_REASONS).map(([name, reason]) => [name, errorKind(reason)]));
  expect(owner).toEqual({ noKey: "noKey", empty: "notSave", badLength: "decrypt", badPadding: "decrypt", notMsgpack: "notSave", protoKey: "notSave", notSave: "notSave" });
  expect(errorKind(new HarvestRecordError("site 6 drop 17: position 6 is missing").message)).toBe("unreadable");
  expect(errorKind(new SaveLimitError("site 5 has 5000 drops").message)).toBe("tooLarge");

  // A player sees the kinds they can act on, told apart by the same classifier.
  expect(captureFailureKind(INVALID_REASONS.badPadding)).toBe("wrongKey");
  expect(captureFailureKind(INVALID_REASONS.badLength)).toBe("wrongKey");
  expect(captureFailureKind(INVALID_REASONS.notSave)).toBe("junk");
  expect(captureFailureKind(INVALID_REASONS.protoKey)).toBe("junk");
  expect(captureFailureKind(new HarvestRecordError("site 6 drop 17").message)).toBe("harvest");
  expect(captureFailureKind(INVALID_REASONS.noKey)).toBe("other");
});

test("a channel's failure is named by what the owner can do about it", () => {
  expect(errorKind("network error (ECONNREFUSED 127.0.0.1:3000)")).toBe("network");
  expect(errorKind("onebot: HTTP 403: token invalid")).toBe("rejected");
  expect(errorKind("discord: HTTP 429")).toBe("busy");
  expect(errorKind("no answer within 10000 ms")).toBe("timeout");
  expect(errorKind("player 123 not in bark_map.json")).toBe("notConfigured");
  expect(errorKind("something else")).toBe("other");
});
