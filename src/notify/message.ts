/** What the pipeline hands to every push channel for one save. Channels only read it. */
export interface PushImage {
  /** File name as archived: `site_5.png`, `overview.png`. */
  name: string;
  png: Uint8Array;
  /** Absolute URL where a phone (Bark) or a webhook consumer can fetch the image; null when images are not served. */
  url: string | null;
  /** The names of the sites the image shows, in the maps' language (the overview: every site; absent: none known). */
  sites?: string[];
}

export interface PushMessage {
  /** Game player id: up to 19 digits, always a string. */
  playerId: string;
  saveId: number;
  capturedAt: Date;
  title: string;
  /** Human text (the contents of rare_resources.txt). */
  summaryText: string;
  /** The summary.json object, passed through untouched to machine consumers (webhook). */
  summary: unknown;
  images: PushImage[];
  /** The player's page (their link's /p/<token>, else the owner's /players/<id>) under PUBLIC_BASE_URL; null without one. */
  pageUrl: string | null;
}

/** The text most channels show: title, then the rare-resource summary. */
export function fullText(message: PushMessage): string {
  const body = message.summaryText.trim();
  return body === "" ? message.title : `${message.title}\n${body}`;
}

/**
 * Cuts `text` to at most `limit` UTF-16 code units (what JS `.length`, Discord and Telegram count),
 * ending with "…" when cut, and never splitting a surrogate pair.
 */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 0) return "";
  let end = limit - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Splits `items` into consecutive chunks of at most `size`, balanced so no chunk is tiny (11 → 6 + 5). */
export function balancedChunks<T>(items: readonly T[], size: number): T[][] {
  if (items.length === 0) return [];
  const count = Math.ceil(items.length / size);
  const base = Math.floor(items.length / count);
  const extra = items.length % count;
  const chunks: T[][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const length = base + (i < extra ? 1 : 0);
    chunks.push(items.slice(start, start + length));
    start += length;
  }
  return chunks;
}

/**
 * How far a multi-request delivery got (Bark sends a push per map, Telegram an album then the text …).
 * Parts before `done` were sent on an earlier attempt and are skipped, so a retry never repeats them.
 */
export interface PartProgress {
  done: number;
  /** Records that the parts before `count` were all answered. */
  markSent: (count: number) => Promise<void>;
}

/** Runs a delivery's requests in order, skipping the parts already sent and recording each one sent. */
export async function sendParts(parts: readonly (() => Promise<void>)[], progress?: PartProgress): Promise<void> {
  for (const [index, part] of parts.entries()) {
    if (progress && index < progress.done) continue;
    await part();
    await progress?.markSent(index + 1);
  }
}
