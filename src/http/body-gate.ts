/**
 * The decode budget, held by what arrived: every upload and report body passes a gate that admits its bytes as
 * they come in (and a decoder's output before it is written) against one budget shared by all requests, so a
 * client that declares a large body and sends it slowly holds only what it sent. One peer address may hold at
 * most a share of the budget while others hold some too, and keep at most `maxBodies` bodies open at once.
 */
import type { MiddlewareHandler } from "hono";
import type { BodyGate, BodyRefusal } from "../ingest/capped-body.ts";
import { logWarn, type LogPrefix } from "../log.ts";
import { ByteBudget, type BudgetAccount } from "./byte-budget.ts";
import { peerOf } from "./peer.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Set by `gateBodies` on the upload and report routes. */
    bodyGate: BodyGate;
  }
}

export interface GateLimits {
  /** How long a chunk waits for room before the request gets 503. */
  waitMs: number;
  /** The share of the budget (0..1] one peer may hold while other requests of it hold some too. */
  peerShare: number;
  /** Bodies one peer may have open at once. */
  maxBodies: number;
  /** Take the peer from X-Forwarded-For (a reverse proxy on this machine). */
  trustProxy: boolean;
}

/** What each peer holds: bytes in the budget, and bodies being read. */
class PeerLoads {
  private readonly loads = new Map<string, { bytes: number; bodies: number }>();

  of(peer: string): { bytes: number; bodies: number } {
    return this.loads.get(peer) ?? { bytes: 0, bodies: 0 };
  }

  change(peer: string, bytes: number, bodies: number): void {
    const load = this.of(peer);
    const next = { bytes: load.bytes + bytes, bodies: load.bodies + bodies };
    if (next.bytes === 0 && next.bodies === 0) this.loads.delete(peer);
    else this.loads.set(peer, next);
  }
}

/** One request's gate: it holds what it admitted until `close()`. */
class RequestGate implements BodyGate {
  private readonly account: BudgetAccount;

  constructor(
    private readonly budget: ByteBudget,
    private readonly peers: PeerLoads,
    private readonly peer: string,
    private readonly limits: GateLimits,
    private readonly prefix: LogPrefix,
  ) {
    this.account = budget.open();
  }

  async admit(bytes: number): Promise<BodyRefusal | null> {
    // A request never waits for room it holds itself: past the whole budget it runs alone.
    const held = this.account.held;
    const wanted = Math.min(bytes, this.budget.capacity - held);
    if (wanted <= 0) return null;
    const peerHeld = this.peers.of(this.peer).bytes;
    if (this.limits.peerShare < 1 && peerHeld > held && peerHeld + wanted > this.budget.capacity * this.limits.peerShare) {
      logWarn(this.prefix, "rejected: this peer holds its share of the decode budget", { status: 429, bytes: peerHeld });
      return { status: 429, reason: "too many bytes in flight from your address; try again shortly", retryAfterSeconds: 1 };
    }
    if (!(await this.account.reserve(wanted, this.limits.waitMs))) {
      logWarn(this.prefix, "rejected: decode budget full", { status: 503, bytes: wanted, inUse: this.budget.inUse, capacity: this.budget.capacity });
      return { status: 503, reason: "server is busy with other uploads; try again shortly", retryAfterSeconds: Math.max(1, Math.ceil(this.limits.waitMs / 1000)) };
    }
    this.peers.change(this.peer, wanted, 0);
    return null;
  }

  close(): void {
    this.peers.change(this.peer, -this.account.held, 0);
    this.account.close();
  }
}

/** The gate factory for one app: one budget and one table of peers for every upload and report route. */
export function bodyGates(capacity: number, limits: GateLimits): (prefix: LogPrefix) => MiddlewareHandler {
  const budget = new ByteBudget(capacity);
  const peers = new PeerLoads();
  return (prefix) => async (c, next) => {
    const peer = peerOf(c, limits.trustProxy);
    if (peers.of(peer).bodies >= limits.maxBodies) {
      logWarn(prefix, "rejected: too many open bodies from this peer", { status: 429, open: limits.maxBodies });
      c.header("Retry-After", "1");
      return c.text("too many requests in flight from your address; try again shortly", 429);
    }
    const gate = new RequestGate(budget, peers, peer, limits, prefix);
    peers.change(peer, 0, 1);
    c.set("bodyGate", gate);
    try {
      await next();
    } finally {
      gate.close();
      peers.change(peer, 0, -1);
    }
  };
}
