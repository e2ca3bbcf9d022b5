/**
 * The key that seals players' link tokens and the setup token in the database (src/db/owner/setup-tokens.ts), and
 * fingerprints the ADMIN_TOKEN that owner sessions are bound to (src/db/owner/sessions.ts): the
 * store keeps each token's sha256 (requests are matched on it) and the token sealed with this key (AES-256-GCM, so
 * the owner's pages and CLI can show the link again). The key lives outside the database: LINK_KEY (a hub must set
 * it, the same on every process: src/config/admin.ts), else DATA_DIR/link.key, made 0600 on the first start. A
 * database dump alone then holds no usable token, and the key alone reveals none either (the tokens are random, not
 * derived from it).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { TOKEN_SHAPE } from "./store/model/owner.ts";

/** A sealed token's prefix: a token itself is [A-Za-z0-9_-] only, so a value without it is an older version's clear token. */
export const SEALED = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const MIN_KEY_LENGTH = 32;
const KEY_FILE = "link.key";

export interface TokenSeal {
  /** The token sealed for its place (`setup`, `player:<id>`): a value sealed for one place opens in no other. */
  seal(token: string, place: string): string;
  /** The token back; an older version's clear token as it is; null when another key sealed it, or it is no token. */
  unseal(stored: string, place: string): string | null;
  /** A keyed one-way fingerprint of a secret (ADMIN_TOKEN): tells a change apart, says nothing of it without the key. */
  fingerprint(secret: string): string;
}

export function tokenSeal(keyText: string): TokenSeal {
  const key = createHmac("sha256", keyText).update("mysekai-ingest link tokens v1").digest();
  const fingerprintKey = createHmac("sha256", keyText).update("mysekai-ingest fingerprints v1").digest();
  return {
    fingerprint: (secret) => createHmac("sha256", fingerprintKey).update(secret).digest("hex"),
    seal: (token, place) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(place));
      const sealed = Buffer.concat([iv, cipher.update(token, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return SEALED + sealed.toString("base64url");
    },
    unseal: (stored, place) => {
      if (!stored.startsWith(SEALED)) return TOKEN_SHAPE.test(stored) ? stored : null;
      const bytes = Buffer.from(stored.slice(SEALED.length), "base64url");
      if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(place));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

/** A new key, as DATA_DIR/link.key gets one (a throwaway hub's LINK_KEY: bench/, scripts/dev-stores.ts). */
export const newLinkKey = () => randomBytes(32).toString("base64url");

class LinkKeyError extends Error {}

/** LINK_KEY when set, else DATA_DIR/link.key (made on the first start; processes starting at once all read the first one written). */
export function loadTokenSeal(linkKey: string | null, dataDir: string): TokenSeal {
  return tokenSeal(linkKey ?? keyFileText(dataDir));
}

function keyFileText(dataDir: string): string {
  const path = join(dataDir, KEY_FILE);
  const existing = readKey(path);
  if (existing !== null) return existing;
  mkdirSync(dataDir, { recursive: true });
  const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const fd = openSync(draft, "wx", 0o600);
  try {
    writeSync(fd, `${newLinkKey()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  return readKey(path)!;
}

/** The file's key; null when there is no file. Errors name the file, never its content. */
function readKey(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw new LinkKeyError(`cannot read the link key ${path} (${code}): run the service and the CLI as the user that owns DATA_DIR`);
  }
  if (text.length < MIN_KEY_LENGTH) throw new LinkKeyError(`the link key ${path} is shorter than ${MIN_KEY_LENGTH} characters: restore it from a backup, or remove it (players' links and the setup token are then shown only once rotated)`);
  return text;
}
