/**
 * A save as the data API serves it: its stored save.json.gz (src/archive/save-json-file.ts), read per request
 * and never held between them. A save archived before that file existed, or past the retention rule (which
 * drops the file with the save's database copy), has its JSON built on first read and kept in memory, in the
 * same gzip form, for the most recent `MAX_BUILT` such saves (with the saves answered with a party refresh's
 * harvest maps in place); it is not written back: the archive folders are the pipeline's.
 */
import { gzipSync, zstdCompressSync } from "node:zlib";
import { packSaveJson, StoredSaveJson } from "../../archive/save-json-file.ts";
import { logWarn } from "../../log.ts";
import type { KeyPair } from "../../save/keys.ts";
import { openSave } from "../../save/open.ts";
import { withHarvestMaps } from "./harvest-maps.ts";
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

  /**
   * The save's JSON: its stored file, else one built from its encrypted bytes; null when they do not open as a
   * save. With `harvestMaps`, the save with that party refresh's harvest maps in place (built once, then kept).
   */
  async get(save: LatestSave): Promise<SaveJson | null> {
    if (save.harvestMaps !== undefined) return this.withHarvestMaps(save, save.harvestMaps);
    const stored = await this.reads.storedJson(save.id);
    const opened = stored === null ? null : StoredSaveJson.open(stored);
    if (stored !== null && opened === null) logWarn("API", "stored save JSON has another layout; building it again", { save: save.id });
    const json = opened ?? (await this.build(save));
    return json === null ? null : new SaveJson(json, () => this.build(save, true));
  }

  private async withHarvestMaps(save: LatestSave, refresh: LatestSave): Promise<SaveJson | null> {
    const key = etagOf(save);
    let composed = this.recall(key);
    if (composed === undefined) {
      const [base, maps] = await Promise.all([this.get({ ...save, harvestMaps: undefined }), this.get(refresh)]);
      if (base === null || maps === null) return base ?? maps;
      const json = withHarvestMaps(await base.json(), await maps.json());
      if (json === null) return base;
      composed = this.remember(key, StoredSaveJson.open(packSaveJson(json.toString()))!);
    }
    const file = composed;
    return new SaveJson(file, async () => file);
  }

  private recall(key: string): StoredSaveJson | undefined {
    const hit = this.built.get(key);
    if (hit) {
      this.built.delete(key);
      this.built.set(key, hit);
    }
    return hit;
  }

  private remember(key: string, json: StoredSaveJson): StoredSaveJson {
    this.built.set(key, json);
    if (this.built.size > MAX_BUILT) this.built.delete(this.built.keys().next().value!);
    return json;
  }

  private async build(save: LatestSave, damaged = false): Promise<StoredSaveJson | null> {
    const hit = this.recall(save.sha256);
    if (hit) return hit;
    if (damaged) logWarn("API", "stored save JSON does not read back; building it again", { save: save.id });
    const bytes = await this.reads.encrypted(save.id);
    const opened = bytes === null ? null : openSave(bytes, this.keys, { json: true, delivery: true });
    if (opened?.kind !== "save" && opened?.kind !== "partial") return null;
    return this.remember(save.sha256, StoredSaveJson.open(packSaveJson(opened.json!))!);
  }
}

/** An answer's ETag: the save's sha256, and the party refresh's whose maps it holds. */
export function etagOf(save: LatestSave): string {
  return save.harvestMaps === undefined ? save.sha256 : `${save.sha256}+${save.harvestMaps.sha256}`;
}

/** Whose upload an answer is (its `upload_time` and `local_source`): the party refresh's when it holds its maps. */
export const uploadOf = (save: LatestSave): LatestSave => save.harvestMaps ?? save;

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
