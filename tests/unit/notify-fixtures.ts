/** Shared test data for the notify channel tests. */
import { expect } from "bun:test";
import { DeliveryError } from "../../src/notify/errors.ts";
import type { PushImage, PushMessage } from "../../src/notify/message.ts";

/** A distinct fake PNG: the real signature followed by bytes derived from `seed`. */
export function fakePng(seed: number, size = 64): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < size; i++) bytes[i] = (seed * 31 + i * 7) & 0xff;
  return bytes;
}

export function images(count: number, urlBase: string | null = null): PushImage[] {
  return Array.from({ length: count }, (_, i) => {
    const name = i === count - 1 && count > 1 ? "overview.png" : `site_${i + 1}.png`;
    return { name, png: fakePng(i + 1), url: urlBase === null ? null : `${urlBase}/${name}` };
  });
}

export function message(overrides: Partial<PushMessage> = {}): PushMessage {
  return {
    playerId: "7485938033569431560",
    saveId: 42,
    capturedAt: new Date("2025-03-04T05:06:07.000Z"),
    title: "MySekai 7485938033569431560",
    summaryText: "Site 5: Crystal ×2\nSite 6: Rainbow glass ×1",
    summary: { sites: [{ siteId: 5, rare: { "mysekai_material:12": 2 } }] },
    images: images(3),
    pageUrl: null,
    ...overrides,
  };
}

/** Awaits `promise`, expects a DeliveryError, checks no secret leaks into it, and returns it. */
export async function deliveryFailure(promise: Promise<unknown>, secrets: string[]): Promise<DeliveryError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DeliveryError);
  const error = caught as DeliveryError;
  for (const secret of secrets) {
    expect(error.message).not.toContain(secret);
    expect(String(error.stack ?? "")).not.toContain(secret);
  }
  return error;
}

export async function fileBytes(form: FormData | null, field: string): Promise<{ name: string; bytes: Uint8Array }> {
  const value = form?.get(field);
  if (!(value instanceof Blob)) throw new Error(`form field ${field} is not a file`);
  return { name: (value as File).name, bytes: new Uint8Array(await value.arrayBuffer()) };
}
