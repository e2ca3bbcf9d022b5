/** Encrypted body → typed save, trying every configured key pair. Never throws on bad input. */
import { AES_BLOCK_SIZE, AesDecryptError, decryptAesCbc } from "./aes.ts";
import type { KeyPair } from "./keys.ts";
import { SaveLimitError } from "./limits.ts";
import type { MySekaiSave } from "./model.ts";
import { exactJson } from "./exact-json.ts";
import { MsgpackDecodeError, decodeMsgpack, normaliseTree } from "./msgpack.ts";
import { toMySekaiSave } from "./parse.ts";
import { HarvestRecordError, restoreHarvestMaps } from "./positional.ts";

export type OpenedSave =
  /** `json`: the decoded save as exact JSON (src/save/exact-json.ts), when asked for. */
  | { kind: "save"; save: MySekaiSave; keyLabel: string; json?: string }
  | { kind: "partial"; save: MySekaiSave; keyLabel: string; json?: string }
  | { kind: "invalid"; reason: string }
  /** Decrypted, but past a cap in limits.ts: it will never fit, so it is refused whole. */
  | { kind: "too_large"; reason: string }
  /** A save whose harvest records cannot be read (positional.ts, parse.ts): failed with the reason, never drawn empty. */
  | { kind: "unreadable"; reason: string };

/** The outcomes that are no save to draw: each ends its job failed with the reason. */
export type UnopenedSave = Extract<OpenedSave, { reason: string }>;

export function isUnopened(opened: OpenedSave): opened is UnopenedSave {
  return opened.kind === "invalid" || opened.kind === "too_large" || opened.kind === "unreadable";
}

export const INVALID_REASONS = {
  noKey: "no AES key configured",
  empty: "empty body",
  badLength: "body length is not a multiple of 16 bytes (truncated?)",
  badPadding: "does not decrypt under any configured key (bad padding)",
  notMsgpack: "decrypted but is not MessagePack",
  protoKey: "MessagePack with a __proto__ map key, which no save has: refused",
  notSave: "MessagePack but not a MySekai save (no updatedResources.userMysekaiHarvestMaps)",
} as const;

/** How far an attempt got; when every key fails, the furthest attempt explains the failure best. */
const PROGRESS = { badPadding: 0, notMsgpack: 1, notSave: 2, protoKey: 2 } as const;
type Failure = keyof typeof PROGRESS;

function tryKey(encrypted: Uint8Array, pair: KeyPair, withJson: boolean, delivery: boolean): { save: MySekaiSave; json?: string } | SaveLimitError | HarvestRecordError | Failure {
  let plain: Uint8Array;
  try {
    plain = decryptAesCbc(encrypted, pair.key, pair.iv);
  } catch (error) {
    if (error instanceof AesDecryptError) return "badPadding";
    throw error;
  }
  try {
    // One decode for both: the JSON is written while 64-bit integers are still bigint, then they are normalised in place.
    const tree = decodeMsgpack(plain, { exact: withJson });
    // The JSON is the object form whatever the game sent: the data API's readers read named fields.
    restoreHarvestMaps(tree);
    const json = withJson ? exactJson(tree) : undefined;
    const save = toMySekaiSave(withJson ? normaliseTree(tree) : tree, { delivery });
    return save === null ? "notSave" : { save, json };
  } catch (error) {
    // The decoder refuses the key that would reach an object's prototype: the bytes are MessagePack all the same.
    if (error instanceof MsgpackDecodeError) return /\b__proto__\b/.test(error.message) ? "protoKey" : "notMsgpack";
    if (error instanceof SaveLimitError || error instanceof HarvestRecordError) return error;
    throw error;
  }
}

/** `delivery`: the body is a birthday party's delivery (parse.ts reads one without harvest maps too). */
export function openSave(encrypted: Uint8Array, keys: readonly KeyPair[], { json = false, delivery = false }: { json?: boolean; delivery?: boolean } = {}): OpenedSave {
  if (keys.length === 0) return { kind: "invalid", reason: INVALID_REASONS.noKey };
  if (encrypted.length === 0) return { kind: "invalid", reason: INVALID_REASONS.empty };
  if (encrypted.length % AES_BLOCK_SIZE !== 0) return { kind: "invalid", reason: INVALID_REASONS.badLength };
  let furthest: Failure = "badPadding";
  for (const pair of keys) {
    const outcome = tryKey(encrypted, pair, json, delivery);
    if (outcome instanceof SaveLimitError) return { kind: "too_large", reason: outcome.message };
    if (outcome instanceof HarvestRecordError) return { kind: "unreadable", reason: outcome.message };
    if (typeof outcome !== "string") {
      return { kind: outcome.save.hasHarvestMaps ? "save" : "partial", save: outcome.save, keyLabel: pair.label, ...(outcome.json !== undefined && { json: outcome.json }) };
    }
    if (PROGRESS[outcome] > PROGRESS[furthest]) furthest = outcome;
  }
  return { kind: "invalid", reason: INVALID_REASONS[furthest] };
}
