/** Public API of the save module: key configuration, decryption, decoding, the typed model, weather. */
export * from "./model.ts";
export * from "./player-id.ts";
export { KeyConfigError, parseAesIv, parseAesKey, parseKeyMaterial, parseKeyPairs, splitKeyEntry } from "./keys.ts";
export type { KeyEnv, KeyPair } from "./keys.ts";
export { AES_BLOCK_SIZE, AesDecryptError, decryptAesCbc, encryptAesCbc } from "./aes.ts";
export type { AesFailure } from "./aes.ts";
export { MsgpackDecodeError, decodeMsgpack, normaliseBigInt } from "./msgpack.ts";
export { DROP_PRESENT_STATUS, FIXTURE_PRESENT_STATUS, toMySekaiSave } from "./parse.ts";
export { REFRESH_PERIOD_MS, readWeather } from "./weather.ts";
export { INVALID_REASONS, isUnopened, openSave } from "./open.ts";
export type { OpenedSave, UnopenedSave } from "./open.ts";
export { dropsFingerprint } from "./drops-fingerprint.ts";
export { EXTRA_POSITIONS, HarvestRecordError, restoreHarvestMaps } from "./positional.ts";
