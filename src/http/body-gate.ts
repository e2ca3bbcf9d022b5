/**
 * The decode budget, held by what arrived: every upload and report body passes a gate that admits its bytes as
 * they come in (and a decoder's output once it is written) against one budget shared by all requests, so a
 * client that declares a large body and sends it slowly holds only what it sent. Each peer address also has a
 * budget of its own, a share of the whole, so one peer waits for itself rather than taking everyone's room;
 * and it may keep at most `maxBodies` bodies open at once.
 */
import type { MiddlewareHandler } from "hono";
import type { BodyGate, BodyRefusal } from "../ingest/capped-body.ts";
import { logWarn, type LogPrefix } from "../log.ts";
import { ByteBudget, type BudgetAccount } from "./byte-budget.ts";
import { peerOf } from "./peer.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Set by the body gate on the upload and report routes. */
    bodyGate: BodyGate;
  }
}

export interface GateLimits {
  /** How long a chunk waits for room before the request is refused. */
  waitMs: number;
  /** The share of the budget (0..1] one peer may hold. */
  peerShare: number;
  /** Bodies one peer may have open at once. */
  maxBodies: number;
  /** Take the peer from X-Forwarded-For (a reverse proxy on this machine). */
  trustProxy: boolean;
}

interface Peer {
  budget: ByteBudget;
  bodies: number;
}

/** One request's gate: it holds what it admitted, in its peer's budget and in the whole, until `close()`. */
class RequestGate implements BodyGate {
  private readonly whole: BudgetAccount;
  private readonly own: BudgetAccount;
  /** What the last admit took from each budget: a give-back returns no more than that. */
  private last = { own: 0, whole: 0 };

  constructor(
    budget: ByteBudget,
    private readonly peer: Peer,
    private readonly limits: GateLimits,
    private readonly prefix: LogPrefix,
  ) {
    this.whole = budget.open();
    this.own = peer.budget.open();
  }

  async admit(bytes: number): Promise<BodyRefusal | null> {
    const retryAfterSeconds = Math.max(1, Math.ceil(this.limits.waitMs / 1000));
    // A request never waits for room it holds itself: past a whole budget it runs alone.
    const fromPeer = this.limits.peerShare >= 1 ? 0 : Math.min(bytes, this.peer.budget.capacity - this.own.held);
    if (fromPeer > 0 && !(await this.own.reserve(fromPeer, this.limits.waitMs))) {
      logWarn(this.prefix, "rejected: this peer's share of the decode budget stayed full", { status: 429, bytes: fromPeer, share: this.peer.budget.capacity });
      return { status: 429, reason: "too many bytes in flight from your address; try again shortly", retryAfterSeconds };
    }
    const fromWhole = Math.min(bytes, this.whole.budget.capacity - this.whole.held);
    if (fromWhole > 0 && !(await this.whole.reserve(fromWhole, this.limits.waitMs))) {
      logWarn(this.prefix, "rejected: decode budget full", { status: 503, bytes: fromWhole, inUse: this.whole.budget.inUse, capacity: this.whole.budget.capacity });
      return { status: 503, reason: "server is busy with other uploads; try again shortly", retryAfterSeconds };
    }
    this.last = { own: Math.max(0, fromPeer), whole: Math.max(0, fromWhole) };
    return null;
  }

  giveBack(bytes: number): void {
    this.own.giveBack(Math.min(bytes, this.last.own));
    this.whole.giveBack(Math.min(bytes, this.last.whole));
    this.last = { own: 0, whole: 0 };
  }

  close(): void {
    this.own.close();
    this.whole.close();
  }
}

/** The gate factory for one app: one budget and one table of peers for every upload and report route. */
export function bodyGates(capacity: number, limits: GateLimits): (prefix: LogPrefix) => MiddlewareHandler {
  const budget = new ByteBudget(capacity);
  const peers = new Map<string, Peer>();
  const peerCapacity = Math.max(1, Math.floor(capacity * limits.peerShare));
  return (prefix) => async (c, next) => {
    const address = peerOf(c, limits.trustProxy);
    let peer = peers.get(address);
    if (peer === undefined) peers.set(address, (peer = { budget: new ByteBudget(peerCapacity), bodies: 0 }));
    if (peer.bodies >= limits.maxBodies) {
      logWarn(prefix, "rejected: too many open bodies from this peer", { status: 429, open: limits.maxBodies });
      c.header("Retry-After", "1");
      return c.text("too many requests in flight from your address; try again shortly", 429);
    }
    const gate = new RequestGate(budget, peer, limits, prefix);
    peer.bodies += 1;
    c.set("bodyGate", gate);
    try {
      await next();
    } finally {
      gate.close();
      peer.bodies -= 1;
      if (peer.bodies === 0) peers.delete(address);
    }
  };
}
