/** The link key's seal (src/link-key.ts): what it opens, and what it refuses to take for a token. */
import { expect, test } from "bun:test";
import { tokenSeal } from "../../src/link-key.ts";

const seal = tokenSeal("a test link key, 32 characters or more");
const TOKEN = "Aq3-x_Z0123456789abcdefghij";

test("a sealed token opens for its own place only, and under its own key only", () => {
  const sealed = seal.seal(TOKEN, "player:1");
  expect(seal.unseal(sealed, "player:1")).toBe(TOKEN);
  expect(seal.unseal(sealed, "player:2")).toBeNull();
  expect(tokenSeal("another link key, 32 characters or more").unseal(sealed, "player:1")).toBeNull();
});

test("an older version's clear token is taken as it is; a value of no token's shape is no token", () => {
  expect(seal.unseal(TOKEN, "setup")).toBe(TOKEN);
  for (const stored of ["v2.a later version's seal", "", "short", "with spaces in it, long enough"]) expect(seal.unseal(stored, "setup")).toBeNull();
});
