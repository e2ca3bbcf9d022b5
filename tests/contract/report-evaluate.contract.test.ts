/**
 * The evaluate stage on both stores (SQLite and a hub's PostgreSQL): which of a stored report's candidates it tries
 * as saves, and what it answers when none is one. The worker is a stand-in that records the bodies it is given.
 */
import { expect, test } from "bun:test";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { HarCandidate } from "../../src/ingest/har.ts";
import type { PipelineDeps } from "../../src/pipeline/stage.ts";
import { evaluateStage } from "../../src/pipeline/stages/evaluate.ts";
import type { EvaluateRequest, EvaluateResult } from "../../src/pipeline/tasks.ts";
import type { WorkerPool } from "../../src/pipeline/worker-pool.ts";
import type { ClaimedJob } from "../../src/store/model/jobs.ts";
import { describeEachStore } from "../helpers/contract-stores.ts";

const KEYS = { AES_KEY: "hex:000102030405060708090a0b0c0d0e0f", AES_IV: "hex:0f0e0d0c0b0a09080706050403020100" };
const candidate = (entryIndex: number, body: Uint8Array, undecodable: boolean): HarCandidate => ({ entryIndex, part: "response", url: null, body, undecodable });
const save = new Uint8Array(32).fill(7);
const text = new TextEncoder().encode("%% not base64 %%");
const none: EvaluateResult = { save: null, partial: null, decryptedAny: true };

describeEachStore("evaluate stage", (s) => {
  /** Stores a report and runs its evaluate stage with a worker stand-in that records the bodies it is given. */
  async function evaluate(candidates: HarCandidate[], answer: EvaluateResult, keys: Record<string, string> = KEYS) {
    const reportId = await s.stores.reports.store({ shape: "har", entryCount: 3, candidates, emptyBodies: 0, otherBodies: 0, skippedEntries: 0, skippedBodies: 0, notes: [] }, {}, Date.now());
    const tried: Uint8Array[][] = [];
    const workers = { run: async (_task: string, request: EvaluateRequest) => (tried.push(request.bodies), answer) } as unknown as WorkerPool;
    const deps = { stageStore: s.stores.stageStore, config: loadConfig({ DATA_DIR: s.config.dataDir, ...keys }), workers, links: { linkedPlayer: async () => null }, secrets: [] } as unknown as PipelineDeps;
    const job = (await s.stores.jobs.claim(Date.now(), 60_000, false)) as ClaimedJob<{ kind: "report"; reportId: number }>;
    expect(job.subject).toEqual({ kind: "report", reportId });
    const result = await evaluateStage(deps, job, { now: Date.now() });
    return { result, tried };
  }

  test("undecodable bodies are never tried as saves; with no save the job fails naming the entry", async () => {
    const { result, tried } = await evaluate([candidate(0, text, true), candidate(2, save, false)], none);
    expect(tried.map((bodies) => bodies.map((b) => b.byteLength))).toEqual([[32]]);
    expect(result).toMatchObject({ kind: "fail", reason: "entry 0 response body is not valid base64; kept for inspection" });
  });

  test("the save found among the decodable bodies is the right candidate", async () => {
    const { result } = await evaluate([candidate(0, text, true), candidate(2, save, false)], { save: 0, partial: null, decryptedAny: true });
    expect(result).toMatchObject({ kind: "advance", note: "save from entry 2 (response)" });
  });

  test("the save found takes its origin from its entry's URL: the game host's region, a party delivery's data type", async () => {
    const url = `https://${REGION_HOSTS.cn[0]}/api/user/7485938820123456789/mysekai/birthday-party/41/delivery`;
    const { result } = await evaluate([{ ...candidate(0, save, false), url }], { save: 0, partial: null, decryptedAny: true });
    expect(result).toMatchObject({ kind: "advance", writes: { kind: "report_save", save: { playerId: "7485938820123456789", origin: { region: "cn", dataType: "mysekai_birthday_party" } } } });
  });

  test("only undecodable bodies: fails at once, even without keys (no key would help)", async () => {
    const { result, tried } = await evaluate([candidate(1, text, true)], none, {});
    expect(tried).toHaveLength(0);
    expect(result).toMatchObject({ kind: "fail", reason: "entry 1 response body is not valid base64; kept for inspection" });
  });
});
