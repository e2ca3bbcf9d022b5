/** Test saves: the sample player, a random key pair per test file, fresh encrypted saves, and the upload POST. */
export {
  SAMPLE_PLAYER_ID as PLAYER_ID,
  makeFreshEncryptedSample as encryptedSave,
  randomKeys as testKeys,
} from "../../src/samples/index.ts";
export { saveUrl, uploadSave } from "../../scripts/lib/upload-client.ts";
