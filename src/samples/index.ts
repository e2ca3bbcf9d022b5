/**
 * Sample saves for the demo (`npm run demo`), the tests and the benchmarks: one seeded generator of
 * realistic raw saves, their MessagePack and encrypted forms, the typed save parsed from them, and
 * random key pairs. Apart from the codec in save/, which only reads saves.
 */
export {
  SAMPLE_DEFAULT_NOW,
  SAMPLE_DEFAULT_SITES,
  SAMPLE_PLAYER_ID,
  SAMPLE_USER_ID,
  encodeSample,
  makeEncryptedSample,
  makeFreshEncryptedSample,
  makeSampleMySekaiSave,
  makeSampleSave,
} from "./save.ts";
export type { SampleOptions } from "./save.ts";
export { SAMPLE_MUSIC_RECORD_DROP_ID } from "./harvest.ts";
export { randomKeyPair, randomKeys } from "./key-pair.ts";
export type { RandomKeyPair } from "./key-pair.ts";
export { seededRandom } from "./random.ts";
export type { Random } from "./random.ts";
