/**
 * save.json.gz and what the data API does with it: an ordinary gzip file of the JSON; an answer with fields
 * appended is one gzip member whose deflate stream and trailer are whole; `filter` slices members without
 * parsing; the JSON of a save comes from the decode that opens it, and is bounded by the save's size.
 */
import { expect, test } from "bun:test";
import { crc32, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
import { packSaveJson, StoredSaveJson } from "../../src/archive/save-json-file.ts";
import { topLevelMembers } from "../../src/http/api/json-parts.ts";
import { decryptAesCbc } from "../../src/save/aes.ts";
import { exactJson } from "../../src/save/exact-json.ts";
import { decodeMsgpack } from "../../src/save/msgpack.ts";
import { openSave } from "../../src/save/open.ts";
import { makeEncryptedSample, randomKeys, SAMPLE_PLAYER_ID } from "../../src/samples/index.ts";

const JSON_TEXT = `{"updatedResources":{"userId":7488393821744390161,"name":"a \\"quoted\\" }], {name"},"list":[1,[2,{"x":"]"}]],"q":"x\\"}],","back\\\\slash":"\\\\","名前":"ミク","n":12345678901234567890}`;

test("the file is a gzip of the JSON; an answer appends fields as one member with a whole deflate stream and trailer", () => {
  const file = packSaveJson(JSON_TEXT);
  expect(gunzipSync(file).toString()).toBe(JSON_TEXT);
  const stored = StoredSaveJson.open(file)!;
  expect(stored.json().toString()).toBe(JSON_TEXT);
  const answer = stored.gzipWith('"upload_time":1,"source":"x"');
  const expected = `${JSON_TEXT.slice(0, -1)},"upload_time":1,"source":"x"}`;
  // A client that reads one gzip member (Python's zlib, aiohttp) gets it all: the deflate stream ends at the trailer.
  const header = 20;
  expect(inflateRawSync(answer.subarray(header, answer.length - 8)).toString()).toBe(expected);
  const trailer = new DataView(answer.buffer, answer.byteOffset + answer.length - 8);
  expect([trailer.getUint32(0, true), trailer.getUint32(4, true)]).toEqual([crc32(expected), Buffer.byteLength(expected)]);
  expect(gunzipSync(answer).toString()).toBe(expected);
  expect(gunzipSync(StoredSaveJson.open(packSaveJson("{}"))!.gzipWith('"a":1')).toString()).toBe('{"a":1}');
});

test("a file of another layout is not taken for a stored JSON", () => {
  const file = packSaveJson(JSON_TEXT);
  expect(StoredSaveJson.open(gzipSync(JSON_TEXT))).toBeNull();
  // Another extra field: its CRC would not be the one the answer's trailer continues.
  const otherExtra = Buffer.from(file);
  otherExtra[12] = 0x58;
  expect(StoredSaveJson.open(otherExtra)).toBeNull();
  expect(StoredSaveJson.open(file.subarray(0, file.length - 1))).toBeNull();
  expect(StoredSaveJson.open(new Uint8Array(0))).toBeNull();
});

test("top-level members are sliced as written, whatever their strings hold", () => {
  const members = topLevelMembers(Buffer.from(JSON_TEXT));
  expect([...members.keys()]).toEqual(["updatedResources", "list", "q", "back\\slash", "名前", "n"]);
  expect(members.get("q")!.value.toString()).toBe('"x\\"}],"');
  expect(members.get("updatedResources")!.value.toString()).toBe('{"userId":7488393821744390161,"name":"a \\"quoted\\" }], {name"}');
  expect(members.get("list")!.member.toString()).toBe('"list":[1,[2,{"x":"]"}]]');
  expect(members.get("back\\slash")!.value.toString()).toBe('"\\\\"');
  expect(members.get("名前")!.member.toString()).toBe('"名前":"ミク"');
  expect(members.get("n")!.value.toString()).toBe("12345678901234567890");
});

test("the JSON of a save is under 10 bytes per decrypted byte, for the costliest values", () => {
  const count = 20_000;
  const array = (items: number[][]) => Uint8Array.from([0xdc, count >> 8, count & 0xff, ...items.flat()]);
  const costly = [
    array(Array.from({ length: count }, () => [0xd4, 0x80, 0x00])), // one-byte extensions of type -128
    array(Array.from({ length: count }, () => [0xc2])), // false
    array(Array.from({ length: count }, () => [0xa1, 0x01])), // one control character
  ];
  for (const bytes of costly) {
    const json = exactJson(decodeMsgpack(bytes, { exact: true }));
    expect(Buffer.byteLength(json) / bytes.length).toBeLessThan(10);
    expect(Buffer.byteLength(json) / bytes.length).toBeGreaterThan(2.9);
  }
});

test("one decode opens the save and writes its JSON: the typed save is the same as without, the JSON keeps 64-bit ids", () => {
  const { pair } = randomKeys();
  const keys = [{ label: "AES_KEY", key: pair.key, iv: pair.iv }];
  const encrypted = makeEncryptedSample(pair, { seed: 5 });
  const plain = openSave(encrypted, keys);
  const withJson = openSave(encrypted, keys, { json: true });
  if (withJson.kind !== "save" || plain.kind !== "save") throw new Error("the sample does not open");
  expect(plain.json).toBeUndefined();
  expect(withJson.save).toEqual(plain.save);
  expect(withJson.json).toContain(`"userId":${SAMPLE_PLAYER_ID}`);
  expect(withJson.json).toBe(exactJson(decodeMsgpack(decryptAesCbc(encrypted, pair.key, pair.iv), { exact: true })));
});

test("every kind of decoded value is written as the save's JSON has always written it", () => {
  // {"id": uint64 2^63+1, "bin": bin8 [1,2,3], "ts": timestamp 32 (a Date), "ext": fixext1 -128, "nil": nil,
  //  "f": float64 NaN, "list": [int64 -2^63, "é\"", true], 7: "integer key"}
  const bytes = Uint8Array.from([
    0x88,
    0xa2, 0x69, 0x64, 0xcf, 0x80, 0, 0, 0, 0, 0, 0, 1,
    0xa3, 0x62, 0x69, 0x6e, 0xc4, 3, 1, 2, 3,
    0xa2, 0x74, 0x73, 0xd6, 0xff, 0, 0, 0, 60,
    0xa3, 0x65, 0x78, 0x74, 0xd4, 0x80, 0x00,
    0xa3, 0x6e, 0x69, 0x6c, 0xc0,
    0xa1, 0x66, 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0,
    0xa4, 0x6c, 0x69, 0x73, 0x74, 0x93, 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0, 0xa3, 0xc3, 0xa9, 0x22, 0xc3,
    0x07, 0xab, ...Buffer.from("integer key"),
  ]);
  expect(exactJson(decodeMsgpack(bytes, { exact: true }))).toBe(
    `{"7":"integer key","id":9223372036854775809,"bin":"AQID","ts":{},"ext":{"type":-128,"data":"AA=="},"nil":null,"f":null,"list":[-9223372036854775808,"é\\"",true]}`,
  );
  expect(exactJson(undefined)).toBe("null");
  expect(exactJson([undefined, 1n])).toBe("[null,1]");
});
