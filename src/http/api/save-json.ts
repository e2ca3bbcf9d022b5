/**
 * A save as the data API serves it: the decrypted, decoded MessagePack tree as exact JSON (src/save/exact-json.ts),
 * built once per save and kept per top-level key (so `filter` joins parts instead of building again), with the
 * encoded whole in each coding asked for. Bounded: the most recent `MAX_CACHED` saves.
 */
import { gzipSync, zstdCompressSync } from "node:zlib";
import type { KeyPair } from "../../save/keys.ts";
import { decryptAesCbc } from "../../save/aes.ts";
import { decodeMsgpack } from "../../save/msgpack.ts";
import { openSave } from "../../save/open.ts";
import { exactJson } from "../../save/exact-json.ts";

const MAX_CACHED = 16;

export interface SaveJson {
  /** `"key":value` per top-level key of the save, in its order. */
  parts: Map<string, string>;
  encoded: Map<string, Uint8Array>;
}

/** The decoded tree of a save under the key that opens it, or null when none does (it is not a save). */
function decodeExact(encrypted: Uint8Array, keys: readonly KeyPair[]): Record<string, unknown> | null {
  const opened = openSave(encrypted, keys);
  if (opened.kind !== "save" && opened.kind !== "partial") return null;
  const pair = keys.find((candidate) => candidate.label === opened.keyLabel)!;
  const tree = decodeMsgpack(decryptAesCbc(encrypted, pair.key, pair.iv), { exact: true });
  return tree !== null && typeof tree === "object" && !Array.isArray(tree) ? (tree as Record<string, unknown>) : null;
}

export class SaveJsonCache {
  private readonly bySha = new Map<string, SaveJson>();

  constructor(private readonly keys: readonly KeyPair[]) {}

  /** The save's JSON parts, built on first use; null when the bytes do not open as a save. */
  get(sha256: string, encrypted: () => Promise<Uint8Array | null>): Promise<SaveJson | null> {
    const hit = this.bySha.get(sha256);
    if (hit) {
      this.bySha.delete(sha256);
      this.bySha.set(sha256, hit);
      return Promise.resolve(hit);
    }
    return encrypted().then((bytes) => {
      const tree = bytes === null ? null : decodeExact(bytes, this.keys);
      if (tree === null) return null;
      const entry: SaveJson = { parts: new Map(Object.entries(tree).map(([key, value]) => [key, `${JSON.stringify(key)}:${exactJson(value)}`])), encoded: new Map() };
      this.bySha.set(sha256, entry);
      if (this.bySha.size > MAX_CACHED) this.bySha.delete(this.bySha.keys().next().value!);
      return entry;
    });
  }
}

/** The JSON object text: the chosen top-level parts (all when `keys` is null), then the extra fields. */
export function jsonText(save: SaveJson, keys: readonly string[] | null, extra: Record<string, unknown>): string {
  const parts = keys === null ? [...save.parts.values()] : keys.flatMap((key) => save.parts.get(key) ?? []);
  const extras = Object.entries(extra).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${[...parts, ...extras].join(",")}}`;
}

export type Coding = "zstd" | "gzip" | "identity";

/** The coding to answer in: zstd, then gzip, when Accept-Encoding names them (q=0 refuses one). */
export function chooseCoding(accept: string | undefined): Coding {
  const offered = new Map(
    (accept ?? "").split(",").map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find((value) => value !== undefined);
      return [name ?? "", q === undefined ? 1 : Number(q)] as const;
    }),
  );
  for (const coding of ["zstd", "gzip"] as const) if ((offered.get(coding) ?? 0) > 0) return coding;
  return "identity";
}

export function encode(text: string, coding: Coding): Uint8Array {
  const bytes = Buffer.from(text);
  if (coding === "gzip") return gzipSync(bytes, { level: 5 });
  if (coding === "zstd") return zstdCompressSync(bytes);
  return bytes;
}
