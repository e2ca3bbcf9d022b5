/**
 * A save as the data API serves it: its stored save.json.gz (src/archive/save-json-file.ts), read per request
 * and never held between them. A save archived before that file existed, or past the retention rule (which
 * drops the file with the save's database copy), has its JSON built on first read and kept in memory, in the
 * same gzip form, for the most recent `MAX_BUILT` such saves; it is not written back: the archive folders are
 * the pipeline's.
 */
import { gzipSync, zstdCompressSync } from "node:zlib";
import { packSaveJson, StoredSaveJson } from "../../archive/save-json-file.ts";
import { logWarn } from "../../log.ts";
import type { KeyPair } from "../../save/keys.ts";
import { openSave } from "../../save/open.ts";
import { topLevelMembers, type JsonMember } from "./json-parts.ts";
import type { LatestSave } from "../../store/model/data-api.ts";
import type { SaveJsonReads } from "../../store/ports/data-api.ts";

const MAX_BUILT = 8;
const COMMA = Buffer.from(",");

export class SaveJsonSource {
  private readonly built = new Map<string, StoredSaveJson>();

  constructor(
    private readonly reads: SaveJsonReads,
    private readonly keys: readonly KeyPair[],
  ) {}

  /** The save's JSON: its stored file, else one built from its encrypted bytes; null when they do not open as a save. */
  async get(save: LatestSave): Promise<SaveJson | null> {
    const stored = await this.reads.storedJson(save.id);
    const opened = stored === null ? null : StoredSaveJson.open(stored);
    if (stored !== null && opened === null) logWarn("API", "stored save JSON has another layout; building it again", { save: save.id });
    const json = opened ?? (await this.build(save));
    return json === null ? null : new SaveJson(json, () => this.build(save, true));
  }

  private async build(save: LatestSave, damaged = false): Promise<StoredSaveJson | null> {
    const hit = this.built.get(save.sha256);
    if (hit) {
      this.built.delete(save.sha256);
      this.built.set(save.sha256, hit);
      return hit;
    }
    if (damaged) logWarn("API", "stored save JSON does not read back; building it again", { save: save.id });
    const bytes = await this.reads.encrypted(save.id);
    const opened = bytes === null ? null : openSave(bytes, this.keys, { json: true });
    if (opened?.kind !== "save" && opened?.kind !== "partial") return null;
    const json = StoredSaveJson.open(packSaveJson(opened.json!))!;
    this.built.set(save.sha256, json);
    if (this.built.size > MAX_BUILT) this.built.delete(this.built.keys().next().value!);
    return json;
  }
}

/** One request's view of a save's JSON: the gzip file, then its bytes and members once asked for. */
export class SaveJson {
  private jsonValue: Buffer | null = null;
  private membersValue: Map<string, JsonMember> | null = null;

  constructor(
    private file: StoredSaveJson,
    private readonly rebuild: () => Promise<StoredSaveJson | null>,
  ) {}

  /** The whole save in gzip with `fields` added, compressing only those. */
  gzipWith(fields: Record<string, unknown>): Uint8Array {
    return this.file.gzipWith(fieldMembers(fields));
  }

  /** The JSON's bytes (a damaged stored file is replaced by a build). */
  async json(): Promise<Buffer> {
    if (this.jsonValue !== null) return this.jsonValue;
    try {
      this.jsonValue = this.file.json();
    } catch {
      const rebuilt = await this.rebuild();
      if (rebuilt === null) throw new Error("the save's JSON does not read back and cannot be built again");
      this.file = rebuilt;
      this.jsonValue = rebuilt.json();
    }
    return this.jsonValue;
  }

  /** The chosen top-level members (all when `keys` is null), then `fields`, as a JSON object's bytes. */
  async withFields(keys: readonly string[] | null, fields: Record<string, unknown>): Promise<Uint8Array> {
    const added = fieldMembers(fields);
    if (keys === null) {
      const whole = await this.json();
      const separator = whole.length > 2 && added !== "" ? "," : "";
      return Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from(`${separator}${added}}`)]);
    }
    const members = await this.members();
    const parts = [...keys.flatMap((key) => members.get(key)?.member ?? []), ...(added === "" ? [] : [Buffer.from(added)])];
    return Buffer.concat([Buffer.from("{"), ...parts.flatMap((part, i) => (i === 0 ? [part] : [COMMA, part])), Buffer.from("}")]);
  }

  async members(): Promise<Map<string, JsonMember>> {
    this.membersValue ??= topLevelMembers(await this.json());
    return this.membersValue;
  }
}

/** `"key":value,…` of the fields added to every answer (upload_time, source, local_source). */
function fieldMembers(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join(",");
}

export type Coding = "zstd" | "gzip" | "identity";

/** The coding to answer in: gzip (the stored form), then zstd, when Accept-Encoding names them (q=0 refuses one). */
export function chooseCoding(accept: string | undefined): Coding {
  const offered = new Map(
    (accept ?? "").split(",").map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find((value) => value !== undefined);
      return [name ?? "", q === undefined ? 1 : Number(q)] as const;
    }),
  );
  for (const coding of ["gzip", "zstd"] as const) if ((offered.get(coding) ?? 0) > 0) return coding;
  return "identity";
}

export function encode(bytes: Uint8Array, coding: Coding): Uint8Array {
  if (coding === "gzip") return gzipSync(bytes, { level: 5 });
  if (coding === "zstd") return zstdCompressSync(bytes);
  return bytes;
}
