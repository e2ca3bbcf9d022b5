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
  return [{ full: secret, origin: secret.slice(0, secret.length - rest.length), rest }];
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
