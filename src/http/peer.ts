/** The address a request comes from: Bun's socket peer, or behind a trusted local proxy the client it forwards for. */
import type { Context } from "hono";

/** Bun passes its server as the app's env: it knows the peer's address. */
export function socketPeer(c: Context): string | undefined {
  const server = c.env as { requestIP?: (request: Request) => { address: string } | null } | undefined;
  return server?.requestIP?.(c.req.raw)?.address;
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * With `trustProxy` and a loopback socket peer (a reverse proxy on this machine), the last X-Forwarded-For
 * address (the one the proxy itself added) stands for the client; without, a proxy's clients all share its
 * address. "unknown" when Bun does not say.
 */
export function peerOf(c: Context, trustProxy: boolean): string {
  const socket = socketPeer(c);
  if (trustProxy && isLoopback(socket)) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim() ?? c.req.header("x-real-ip")?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return socket ?? "unknown";
}
