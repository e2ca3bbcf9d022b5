import { describe, expect, test } from "bun:test";
import { encode } from "@msgpack/msgpack";
import {
  AesDecryptError,
  INVALID_REASONS,
  MsgpackDecodeError,
  type KeyPair,
  decodeMsgpack,
  decryptAesCbc,
  encryptAesCbc,
  openSave,
} from "../../src/save/index.ts";
import { encodeSample, makeEncryptedSample } from "../../src/samples/index.ts";

const fromHex = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
/** Fixed keys so every outcome below is deterministic (a random wrong key may, 1 in 256, unpad). */
const fixedPair = (label: string, bytes: number, fill: number): KeyPair => ({
  label,
  key: new Uint8Array(bytes).map((_, i) => (i * 31 + fill) & 0xff),
  iv: new Uint8Array(16).map((_, i) => (i * 7 + fill) & 0xff),
});
const RIGHT = fixedPair("AES_KEYS[1]", 16, 3);
const WRONG = fixedPair("AES_KEY", 16, 90);

function aesError(action: () => unknown): AesDecryptError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AesDecryptError);
    return error as AesDecryptError;
  }
  throw new Error("expected an AesDecryptError");
}

describe("AES-CBC", () => {
  test("matches the NIST SP 800-38A CBC-AES128 vector", () => {
    const key = fromHex("2b7e151628aed2a6abf7158809cf4f3c");
    const iv = fromHex("000102030405060708090a0b0c0d0e0f");
    const plain = fromHex("6bc1bee22e409f96e93d7e117393172a");
    const cipher = encryptAesCbc(plain, key, iv);
    expect(cipher.length).toBe(32); // a full block of PKCS#7 padding follows
    expect(toHex(cipher.subarray(0, 16))).toBe("7649abac8119b246cee98e9b12e9197d");
    expect(decryptAesCbc(cipher, key, iv)).toEqual(plain);
  });

  for (const bits of [128, 192, 256]) {
    test(`round trips at ${bits} bits for every padding length`, () => {
      const pair = fixedPair("k", bits / 8, bits);
      for (let length = 0; length <= 33; length++) {
        const plain = new Uint8Array(length).map((_, i) => i * 13);
        const cipher = encryptAesCbc(plain, pair.key, pair.iv);
        expect(cipher.length % 16).toBe(0);
        expect(decryptAesCbc(cipher, pair.key, pair.iv)).toEqual(plain);
      }
    });
  }

  test("empty and non-block-sized input is refused", () => {
    expect(aesError(() => decryptAesCbc(new Uint8Array(0), RIGHT.key, RIGHT.iv)).reason).toBe("bad length");
    expect(aesError(() => decryptAesCbc(new Uint8Array(31), RIGHT.key, RIGHT.iv)).reason).toBe("bad length");
  });

  test("a flipped bit in the padding is refused (strict PKCS#7)", () => {
    const plain = new Uint8Array(32).fill(0x41); // full 16-byte padding block
    const cipher = encryptAesCbc(plain, RIGHT.key, RIGHT.iv);
    // In CBC a bit flipped in block n-1 flips the same bit of plaintext block n.
    const lastByte = cipher.slice();
    lastByte[lastByte.length - 17]! ^= 0x01;
    expect(aesError(() => decryptAesCbc(lastByte, RIGHT.key, RIGHT.iv)).reason).toBe("bad padding");
    const middleByte = cipher.slice();
    middleByte[middleByte.length - 24]! ^= 0x04;
    const error = aesError(() => decryptAesCbc(middleByte, RIGHT.key, RIGHT.iv));
    expect(error.message).toBe("bad padding: padding bytes differ");
  });

  test("the wrong key fails on padding, and errors carry no key material", () => {
    const cipher = encryptAesCbc(new TextEncoder().encode("hello save"), RIGHT.key, RIGHT.iv);
    const error = aesError(() => decryptAesCbc(cipher, WRONG.key, WRONG.iv));
    expect(error.reason).toBe("bad padding");
    for (const secret of [toHex(WRONG.key), toHex(WRONG.iv), toHex(RIGHT.key)]) expect(error.message).not.toContain(secret);
    expect(aesError(() => decryptAesCbc(cipher, new Uint8Array(15), RIGHT.iv)).reason).toBe("bad key length");
    expect(aesError(() => decryptAesCbc(cipher, RIGHT.key, new Uint8Array(8))).reason).toBe("bad iv length");
  });
});

describe("MessagePack decoding", () => {
  test("64-bit integers are exact: safe ones become numbers, larger ones decimal strings", () => {
    const bytes = encode(
      {
        userId: 7488393821744390161n,
        max: 18446744073709551615n,
        negative: -9223372036854775808n,
        safe: 9007199254740991n,
        now: 1749871500000n,
        list: [1n, -2n],
      },
      { useBigInt64: true },
    );
    expect(decodeMsgpack(bytes)).toEqual({
      userId: "7488393821744390161",
      max: "18446744073709551615",
      negative: "-9223372036854775808",
      safe: 9007199254740991,
      now: 1749871500000,
      list: [1, -2],
    });
  });

  test("non-string map keys are tolerated", () => {
    // { 1: "a", nil: "b", true: "c", uint64 5: "d", bin "hi": "e" }
    const bytes = new Uint8Array([
      0x85, 0x01, 0xa1, 0x61, 0xc0, 0xa1, 0x62, 0xc3, 0xa1, 0x63, 0xcf, 0, 0, 0, 0, 0, 0, 0, 5, 0xa1, 0x64, 0xc4, 2,
      0x68, 0x69, 0xa1, 0x65,
    ]);
    expect(decodeMsgpack(bytes)).toEqual({ 1: "a", null: "b", true: "c", 5: "d", hi: "e" });
  });

  test("garbage, truncated and trailing bytes raise MsgpackDecodeError", () => {
    const valid = encode({ a: [1, 2, 3] });
    for (const bad of [new Uint8Array([0xc1]), valid.subarray(0, valid.length - 1), new Uint8Array([...valid, 0])]) {
      expect(() => decodeMsgpack(bad)).toThrow(MsgpackDecodeError);
    }
  });
});

describe("openSave", () => {
  const encryptedSave = makeEncryptedSample(RIGHT, { seed: 5 });

  test("tries keys in order and reports which one decrypted", () => {
    const opened = openSave(encryptedSave, [WRONG, RIGHT]);
    expect(opened.kind).toBe("save");
    if (opened.kind !== "save") return;
    expect(opened.keyLabel).toBe("AES_KEYS[1]");
    expect(opened.save.sites.map((site) => site.siteId)).toEqual([5, 6, 7, 8]);
  });

  test("short human reasons for every invalid body, never a throw", () => {
    const invalid = (body: Uint8Array, keys: KeyPair[]) => {
      const opened = openSave(body, keys);
      expect(opened.kind).toBe("invalid");
      return opened.kind === "invalid" ? opened.reason : "";
    };
    expect(invalid(encryptedSave, [])).toBe(INVALID_REASONS.noKey);
    expect(invalid(new Uint8Array(0), [RIGHT])).toBe(INVALID_REASONS.empty);
    expect(invalid(encryptedSave.subarray(0, encryptedSave.length - 5), [RIGHT])).toBe(INVALID_REASONS.badLength);
    expect(invalid(encryptedSave, [WRONG])).toBe(INVALID_REASONS.badPadding);
    const garbage = encryptAesCbc(new Uint8Array([0xc1, 0xc1, 0xc1]), RIGHT.key, RIGHT.iv);
    expect(invalid(garbage, [WRONG, RIGHT])).toBe(INVALID_REASONS.notMsgpack);
    const notSave = encryptAesCbc(encodeSample({ updatedResources: { userMysekaiMaterials: [] } }), RIGHT.key, RIGHT.iv);
    expect(invalid(notSave, [RIGHT, WRONG])).toBe(INVALID_REASONS.notSave);
    // Whole blocks cut off the end: the body no longer unpads or decodes as a whole.
    expect(invalid(encryptedSave.subarray(0, 4096), [RIGHT])).toMatch(/padding|MessagePack/);
  });

  test("invalid reasons never contain key text", () => {
    const keyTexts = [WRONG, RIGHT].flatMap((pair) => [toHex(pair.key), toHex(pair.iv)]);
    const bodies = [new Uint8Array(0), new Uint8Array(17), encryptedSave, encryptAesCbc(new Uint8Array(3), RIGHT.key, RIGHT.iv)];
    for (const body of bodies) {
      const opened = openSave(body, [WRONG]);
      const text = JSON.stringify(opened);
      for (const secret of keyTexts) expect(text).not.toContain(secret);
    }
  });

  test("an empty harvest map array opens as a partial refresh", () => {
    const opened = openSave(makeEncryptedSample(RIGHT, { sites: [] }), [RIGHT]);
    expect(opened.kind).toBe("partial");
    if (opened.kind === "partial") {
      expect(opened.save.hasHarvestMaps).toBe(false);
      expect(opened.save.sites).toEqual([]);
      expect(opened.keyLabel).toBe("AES_KEYS[1]");
    }
  });
});
