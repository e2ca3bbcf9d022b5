/**
 * A save's bodies for the consumer webhooks that carry it (src/notify/data-webhook.ts), read from its archive:
 * save.bin (checked against the save's sha256) and save.json.gz. A missing file is a permanent failure: the
 * push cannot carry what the archive no longer has.
 */
import { SAVE_JSON_FILE, StoredSaveJson } from "../archive/save-json-file.ts";
import { readArchiveBytes, type ArchiveStore } from "../archive/store.ts";
import type { SaveBodies } from "../notify/data-webhook.ts";
import { DeliveryError } from "../notify/errors.ts";
import { archivedSaveBytes } from "../archive/encrypted-save.ts";
import { DATA_WEBHOOK_CHANNEL } from "../store/model/deliveries.ts";

export function archivedSaveBodies(store: ArchiveStore, relPath: string, sha256: string): SaveBodies {
  const missing = (what: string) => new DeliveryError(`${DATA_WEBHOOK_CHANNEL}: ${what}`, { permanent: true });
  return {
    encrypted: async () => {
      const found = await archivedSaveBytes(store, relPath, sha256);
      if ("missing" in found) throw missing(found.missing);
      return found.bytes;
    },
    json: async () => {
      const file = await readArchiveBytes(store, relPath, SAVE_JSON_FILE);
      const stored = file === null ? null : StoredSaveJson.open(file);
      if (stored === null) throw missing(`${relPath}/${SAVE_JSON_FILE} is missing or of another layout`);
      try {
        return stored.json();
      } catch {
        throw missing(`${relPath}/${SAVE_JSON_FILE} does not read back`);
      }
    },
  };
}
