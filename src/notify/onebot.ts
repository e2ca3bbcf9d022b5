/**
 * OneBot v11 over HTTP (go-cqhttp, NapCat, Lagrange, LLOneBot ...): `send_group_msg` / `send_private_msg`
 * with a message-segment array, images inlined as `base64://`. At most 10 images per message; the text
 * goes in the first one.
 *
 * Ids are sent as JSON numbers because several implementations reject string ids; QQ ids are at most
 * 15 digits here, far below 2^53, so the number is exact.
 */
import { balancedChunks, fullText, type PushMessage, sendParts, type PartProgress } from "./message.ts";
import { deliveryError, excerpt, failUnlessOk, send, type HttpContext } from "./http.ts";

export interface OneBotConfig {
  /** Base URL of the OneBot HTTP API, e.g. http://127.0.0.1:3000. */
  url: string;
  /** Access token; sent as `Authorization: Bearer <token>` when set. */
  token: string | null;
  /** `group:<id>` or `private:<id>`. */
  target: string;
  timeoutMs: number;
}

export interface OneBotTarget {
  kind: "group" | "private";
  id: number;
}

export const ONEBOT_IMAGES_PER_MESSAGE = 10;

/** Parses `group:<digits>` / `private:<digits>` (1–15 digits); null when malformed. */
export function parseOneBotTarget(text: string): OneBotTarget | null {
  const match = /^(group|private):([0-9]{1,15})$/.exec(text.trim());
  if (match === null) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return { kind: match[1] === "group" ? "group" : "private", id };
}

type Segment = { type: "text"; data: { text: string } } | { type: "image"; data: { file: string } };

export async function sendOneBot(message: PushMessage, onebot: OneBotConfig, progress?: PartProgress): Promise<void> {
  const ctx: HttpContext = { channel: "onebot", timeoutMs: onebot.timeoutMs, secrets: onebot.token ? [onebot.token] : [] };
  const target = parseOneBotTarget(onebot.target);
  if (target === null) {
    throw deliveryError(ctx, "target must be group:<id> or private:<id>", { permanent: true });
  }
  const endpoint = `${onebot.url.replace(/\/+$/, "")}/${target.kind === "group" ? "send_group_msg" : "send_private_msg"}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (onebot.token) headers.authorization = `Bearer ${onebot.token}`;

  const batches = balancedChunks(message.images, ONEBOT_IMAGES_PER_MESSAGE);
  if (batches.length === 0) batches.push([]);
  const parts = batches.map((batch, index) => () => {
    const segments: Segment[] = index === 0 ? [{ type: "text", data: { text: fullText(message) } }] : [];
    for (const image of batch) {
      segments.push({ type: "image", data: { file: `base64://${Buffer.from(image.png).toString("base64")}` } });
    }
    const payload = {
      ...(target.kind === "group" ? { group_id: target.id } : { user_id: target.id }),
      message: segments,
    };
    return post(endpoint, headers, JSON.stringify(payload), ctx);
  });
  await sendParts(parts, progress);
}

/** retcodes meaning the request itself is wrong (bad params, invalid data, bad credentials). */
const PERMANENT_RETCODES = new Set([100, 102, 104]);

async function post(endpoint: string, headers: Record<string, string>, body: string, ctx: HttpContext) {
  const reply = await send(endpoint, { method: "POST", headers, body }, ctx);
  const answer = (typeof reply.json === "object" && reply.json !== null ? reply.json : {}) as {
    status?: unknown;
    retcode?: unknown;
    msg?: unknown;
    wording?: unknown;
  };
  const words = [answer.msg, answer.wording].filter((w) => typeof w === "string" && w !== "").join(": ");
  const detail = words !== "" ? words : excerpt(ctx, reply.text);
  failUnlessOk(ctx, reply, detail);
  // retcode 1 / status "async": accepted for asynchronous sending.
  const accepted = answer.retcode === 0 || answer.retcode === 1 || answer.status === "ok" || answer.status === "async";
  if (accepted && answer.status !== "failed") return;
  const retcode = typeof answer.retcode === "number" ? answer.retcode : undefined;
  throw deliveryError(ctx, `retcode ${retcode ?? "missing"}: ${detail}`, {
    permanent: retcode !== undefined && PERMANENT_RETCODES.has(retcode),
  });
}
