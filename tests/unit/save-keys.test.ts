import { describe, expect, test } from "bun:test";
import { KeyConfigError, parseKeyMaterial, parseKeyPairs, splitKeyEntry } from "../../src/save/index.ts";

const RAW_KEY = "abcdefghijklmnop";
const RAW_IV = "0123456789abcdef";
const bytesOf = (text: string) => new TextEncoder().encode(text);
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const b64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** Runs `action`, expects a KeyConfigError, and checks that none of `secrets` leaks into its message. */
function configError(action: () => unknown, secrets: string[]): KeyConfigError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(KeyConfigError);
  const error = caught as KeyConfigError;
  for (const secret of secrets) expect(error.message).not.toContain(secret);
  return error;
}

describe("parseKeyMaterial", () => {
  test("raw text is its UTF-8 bytes", () => {
    expect(parseKeyMaterial(RAW_KEY, "AES_KEY")).toEqual(bytesOf(RAW_KEY));
  });

  test("hex: and base64: decode to the same bytes as the raw form", () => {
    const bytes = bytesOf(RAW_KEY);
    expect(parseKeyMaterial(`hex:${hexOf(bytes)}`, "AES_KEY")).toEqual(bytes);
    expect(parseKeyMaterial(`hex:${hexOf(bytes).toUpperCase()}`, "AES_KEY")).toEqual(bytes);
    expect(parseKeyMaterial(`base64:${b64Of(bytes)}`, "AES_KEY")).toEqual(bytes);
    expect(parseKeyMaterial(`base64:${b64Of(bytes).replace(/=+$/, "")}`, "AES_KEY")).toEqual(bytes);
  });

  test("URL-safe base64 is accepted", () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0xfe, 0x00, 0x01]);
    const urlSafe = b64Of(bytes).replace(/\+/g, "-").replace(/\//g, "_");
    expect(parseKeyMaterial(`base64:${urlSafe}`, "AES_KEY")).toEqual(bytes);
  });

  test("bad hex and base64 name the variable, not the value", () => {
    const oddHex = "hex:abcde-secret";
    expect(configError(() => parseKeyMaterial(oddHex, "AES_KEY"), ["abcde"]).message).toMatch(/^AES_KEY .*hex/);
    const nonHex = "hex:zzzzsecretzz";
    expect(configError(() => parseKeyMaterial(nonHex, "AES_IV"), ["zzzz"]).message).toMatch(/^AES_IV .*hex/);
    const badB64 = "base64:not*base64!";
    expect(configError(() => parseKeyMaterial(badB64, "AES_KEY"), ["not*base64"]).message).toContain("base64");
    expect(configError(() => parseKeyMaterial("", "AES_KEY"), []).message).toBe("AES_KEY is empty");
  });
});

describe("parseKeyPairs", () => {
  test("nothing configured is an empty list, not an error", () => {
    expect(parseKeyPairs({})).toEqual([]);
    expect(parseKeyPairs({ AES_KEY: "", AES_IV: "", AES_KEYS: "  " })).toEqual([]);
  });

  test("AES_KEY + AES_IV form the first pair, in every form", () => {
    const forms = [
      { AES_KEY: RAW_KEY, AES_IV: RAW_IV },
      { AES_KEY: `hex:${hexOf(bytesOf(RAW_KEY))}`, AES_IV: `hex:${hexOf(bytesOf(RAW_IV))}` },
      { AES_KEY: `base64:${b64Of(bytesOf(RAW_KEY))}`, AES_IV: `base64:${b64Of(bytesOf(RAW_IV))}` },
    ];
    for (const env of forms) {
      expect(parseKeyPairs(env)).toEqual([{ label: "AES_KEY", key: bytesOf(RAW_KEY), iv: bytesOf(RAW_IV) }]);
    }
  });

  test("key length picks AES-128/192/256; anything else is refused", () => {
    for (const length of [16, 24, 32]) {
      const [pair] = parseKeyPairs({ AES_KEY: "k".repeat(length), AES_IV: RAW_IV });
      expect(pair?.key.length).toBe(length);
    }
    const shortKey = "fifteen-chars!!";
    const error = configError(() => parseKeyPairs({ AES_KEY: shortKey, AES_IV: RAW_IV }), [shortKey, RAW_IV]);
    expect(error.message).toBe("AES_KEY must be 16, 24 or 32 bytes, got 15");
    expect(error.variable).toBe("AES_KEY");
  });

  test("IV must be 16 bytes", () => {
    const iv = "0123456789ab";
    const error = configError(() => parseKeyPairs({ AES_KEY: RAW_KEY, AES_IV: iv }), [iv, RAW_KEY]);
    expect(error.message).toBe("AES_IV must be 16 bytes, got 12");
  });

  test("only one of AES_KEY / AES_IV names the missing one", () => {
    expect(configError(() => parseKeyPairs({ AES_KEY: RAW_KEY }), [RAW_KEY]).variable).toBe("AES_IV");
    expect(configError(() => parseKeyPairs({ AES_IV: RAW_IV }), [RAW_IV]).variable).toBe("AES_KEY");
  });

  test("AES_KEYS adds labelled pairs after AES_KEY, mixing forms", () => {
    const key2 = bytesOf("ABCDEFGHIJKLMNOPQRSTUVWX");
    const iv2 = bytesOf("fedcba9876543210");
    const key3 = new Uint8Array(32).fill(7);
    const iv3 = new Uint8Array(16).fill(9);
    const list = ` hex:${hexOf(key2)}:base64:${b64Of(iv2)} , base64:${b64Of(key3)}:hex:${hexOf(iv3)},${RAW_IV}:${RAW_KEY},`;
    const pairs = parseKeyPairs({ AES_KEY: RAW_KEY, AES_IV: RAW_IV, AES_KEYS: list });
    expect(pairs.map((pair) => pair.label)).toEqual(["AES_KEY", "AES_KEYS[0]", "AES_KEYS[1]", "AES_KEYS[2]"]);
    expect(pairs[1]).toEqual({ label: "AES_KEYS[0]", key: key2, iv: iv2 });
    expect(pairs[2]).toEqual({ label: "AES_KEYS[1]", key: key3, iv: iv3 });
    expect(pairs[3]).toEqual({ label: "AES_KEYS[2]", key: bytesOf(RAW_IV), iv: bytesOf(RAW_KEY) });
  });

  test("AES_KEYS alone works without AES_KEY", () => {
    const pairs = parseKeyPairs({ AES_KEYS: `${RAW_KEY}:${RAW_IV}` });
    expect(pairs).toEqual([{ label: "AES_KEYS[0]", key: bytesOf(RAW_KEY), iv: bytesOf(RAW_IV) }]);
  });

  test("AES_KEYS errors name the entry and part, never the value", () => {
    const noSeparator = configError(() => parseKeyPairs({ AES_KEYS: `${RAW_KEY}${RAW_IV}` }), [RAW_KEY, RAW_IV]);
    expect(noSeparator.variable).toBe("AES_KEYS[0]");
    const badIv = configError(() => parseKeyPairs({ AES_KEYS: `${RAW_KEY}:${RAW_IV},${RAW_KEY}:short-iv` }), [
      RAW_KEY,
      "short-iv",
    ]);
    expect(badIv.message).toBe("AES_KEYS[1] IV must be 16 bytes, got 8");
  });
});

describe("splitKeyEntry", () => {
  test("the key ends at the first ':' after its prefix; the IV is the rest", () => {
    expect(splitKeyEntry("hex:00ff:hex:11ee", "x")).toEqual({ keyText: "hex:00ff", ivText: "hex:11ee" });
    expect(splitKeyEntry("base64:AAAA:raw:iv:with:colons", "x")).toEqual({
      keyText: "base64:AAAA",
      ivText: "raw:iv:with:colons",
    });
    expect(splitKeyEntry("rawkey:base64:BBBB", "x")).toEqual({ keyText: "rawkey", ivText: "base64:BBBB" });
  });
});
