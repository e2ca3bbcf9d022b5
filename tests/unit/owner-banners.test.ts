/** The owner's page says what stops the service, with what to set; nothing when all is well. */
import { afterAll, expect, test } from "bun:test";
import { ownerApp } from "../helpers/owner-app.ts";

const TOKEN = "banner-test-token-0123456789";
const disk = { full: false, freeBytes: 10 * 2 ** 30 };
const app = ownerApp({ ADMIN_TOKEN: TOKEN, AES_KEY: "0123456789abcdef", AES_IV: "fedcba9876543210" }, disk);
afterAll(() => app.cleanup());

const banners = async () => {
  const html = await (await app.request("/", { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return [...html.matchAll(/data-banner="([a-z-]+)"/g)].map((match) => match[1]);
};

test("the disk floor is a banner while it lasts; with keys and a channel there is none", async () => {
  expect(await banners()).toEqual([]);
  disk.full = true;
  expect(await banners()).toEqual(["disk-full"]);
  disk.full = false;
  expect(await banners()).toEqual([]);
});
