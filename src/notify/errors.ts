/** Delivery failures and the redaction every channel applies before a message leaves this module. */

export class DeliveryError extends Error {
  /** true: retrying the same message will fail the same way (bad token, unknown chat, 4xx). */
  readonly permanent: boolean;
  /** How long the remote asked us to wait before trying again (429), when it said. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: { permanent: boolean; retryAfterMs?: number }) {
    super(message);
    this.name = "DeliveryError";
    this.permanent = options.permanent;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** Shortest secret worth replacing: shorter strings ("1", "ab") would shred harmless text. */
const MIN_SECRET_LENGTH = 4;

function urlSecretParts(secret: string): { full: string; origin: string; rest: string }[] {
  let url: URL;
  try {
    url = new URL(secret);
  } catch {
    return [];
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return [];
  const rest = secret.slice(secret.indexOf(url.host) + url.host.length);
  if (rest === "" || rest === "/") return [];
  // The origin shown keeps no user:password (userinfoForms hides those wherever they appear).
  return [{ full: secret, origin: `${url.protocol}//${url.host}`, rest }];
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * A URL's user:password in every form it may come back in: as written, percent-decoded, URL-encoded, and as the
 * Basic auth header's base64 (fetch sends userinfo as `Authorization: Basic …`, which a receiver may echo), each
 * also as a receiver's JSON escapes it.
 */
function userinfoForms(secret: string): string[] {
  let url: URL;
  try {
    url = new URL(secret);
  } catch {
    return [];
  }
  if (url.password === "" && url.username === "") return [];
  const forms = new Set<string>();
  for (const pair of [`${url.username}:${url.password}`, `${decoded(url.username)}:${decoded(url.password)}`]) {
    const base64 = Buffer.from(pair).toString("base64");
    for (const form of [pair, base64, base64.replace(/=+$/, ""), Buffer.from(pair).toString("base64url")]) {
      forms.add(form);
      forms.add(encodeURIComponent(form));
      for (const escaped of jsonEscaped(form)) forms.add(escaped);
    }
  }
  // The password alone, or a user name standing for a token when there is no password.
  const secretPart = url.password !== "" ? url.password : url.username;
  for (const form of [secretPart, decoded(secretPart), encodeURIComponent(decoded(secretPart))]) {
    forms.add(form);
    for (const escaped of jsonEscaped(form)) forms.add(escaped);
  }
  return [...forms];
}

/** How a receiver's JSON may escape a value it echoes: `\/` (PHP), `\u0026` for `&<>` (Go), both, or every non-ASCII. */
function jsonEscaped(form: string): string[] {
  const json = JSON.stringify(form).slice(1, -1);
  const go = json.replace(/[&<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const ascii = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [json, json.replaceAll("/", "\\/"), go, go.replaceAll("/", "\\/"), ascii].filter((escaped) => escaped !== form);
}

/**
 * Replaces every secret in `text` with `***`. A secret that is a URL (webhook URL, server with a key in
 * its path) keeps only its scheme and host: `https://discord.com/***`, and its path alone is hidden too.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const usable = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const replacements: [string, string][] = [];
  for (const secret of usable) {
    for (const part of urlSecretParts(secret)) {
      replacements.push([part.full, `${part.origin}/***`]);
      if (part.rest.length >= MIN_SECRET_LENGTH) replacements.push([part.rest, "/***"]);
    }
    for (const form of userinfoForms(secret)) if (form.length >= MIN_SECRET_LENGTH) replacements.push([form, "***"]);
    replacements.push([secret, "***"]);
    // The same secret as it appears inside a URL (a Bark key with "/" is sent escaped).
    const escaped = encodeURIComponent(secret);
    if (escaped !== secret) replacements.push([escaped, "***"]);
  }
  replacements.sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [from, to] of replacements) out = out.split(from).join(to);
  return out;
}
