/** Stream helpers for the ingest tests: bodies fed in slices, compression, and lazy bombs. */

export interface TrackedStream {
  stream: ReadableStream<Uint8Array>;
  /** How many bytes the reader pulled, and whether it cancelled. */
  stats: { pulled: number; cancelled: boolean; peakRss: number };
}

/** A body stream that hands out `bytes` in slices of `sliceSize`, one per pull. */
export function sliced(bytes: Uint8Array, sliceSize = 16 * 1024): TrackedStream {
  const stats = { pulled: 0, cancelled: false, peakRss: 0 };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      stats.peakRss = Math.max(stats.peakRss, process.memoryUsage().rss);
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const slice = bytes.slice(offset, offset + sliceSize);
      offset += slice.length;
      stats.pulled += slice.length;
      controller.enqueue(slice);
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  return { stream, stats };
}

/** A stream that delivers `prefix` and then fails, like a client that hangs up mid-body. */
export function failingAfter(prefix: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new Error("connection reset"));
        return;
      }
      sent = true;
      controller.enqueue(prefix);
    },
  });
}

export async function compress(bytes: Uint8Array, format: Bun.CompressionFormat): Promise<Uint8Array> {
  const out = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream(format));
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/**
 * `totalBytes` of zeros compressed with `format`, produced by streaming 1 MiB slices of one
 * shared zero buffer through CompressionStream: the plain data never exists in memory.
 * (Brotli at its default quality needs ~40 s for 1 GiB; pass level 1 for it.)
 */
export async function zeroBomb(format: Bun.CompressionFormat, totalBytes: number, level?: number): Promise<Uint8Array> {
  const zeros = new Uint8Array(1 << 20);
  let produced = 0;
  const source = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (produced >= totalBytes) {
        controller.close();
        return;
      }
      const size = Math.min(zeros.length, totalBytes - produced);
      controller.enqueue(size === zeros.length ? zeros : zeros.subarray(0, size));
      produced += size;
    },
  });
  return new Uint8Array(await new Response(source.pipeThrough(new CompressionStream(format, level === undefined ? {} : { level }))).arrayBuffer());
}

/** A JSON document of about `approxBytes` that does not compress to nothing. */
export function sampleJson(approxBytes: number): Uint8Array {
  const entries: string[] = [];
  let size = 0;
  for (let i = 0; size < approxBytes; i++) {
    const item = JSON.stringify({ i, url: `https://example.test/api/user/${1e15 + i * 7919}/x`, v: (i * 2654435761) % 4294967296 });
    entries.push(item);
    size += item.length + 1;
  }
  return new TextEncoder().encode(`{"log":{"entries":[${entries.join(",")}]}}`);
}

export const text = (value: string): Uint8Array => new TextEncoder().encode(value);
