/** Whether PUBLIC_BASE_URL is one a phone out on the internet can reach: what the start log and the owner's pages flag. */

const PRIVATE_V4 = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];

/** A name (as parseHost or URL.hostname gives it) that only reaches this machine. */
export function isLoopbackName(name: string | undefined): boolean {
  return name === "localhost" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name ?? "");
}

/** A URL's host that only this machine reaches ("loopback"), one only a local network reaches ("private"), or null. */
export function unreachableBase(url: string): "loopback" | "private" | null {
  const name = new URL(url).hostname.toLowerCase();
  if (isLoopbackName(name) || name.endsWith(".localhost") || name === "0.0.0.0") return "loopback";
  if (PRIVATE_V4.some((range) => range.test(name)) || /^\[f[cd]/.test(name) || /^\[fe80:/.test(name)) return "private";
  if (name.endsWith(".local") || name.endsWith(".lan") || name.endsWith(".home.arpa") || !name.includes(".")) return "private";
  return null;
}
