/** Moved to scripts/lib/dev-swift.ts (the benches start the same servers); kept so that imports from tests/helpers still work. */
export * from "../../scripts/lib/dev-swift.ts";
