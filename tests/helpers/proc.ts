/** Moved to scripts/lib/proc.ts (the benches start the same servers); kept so that imports from tests/helpers still work. */
export * from "../../scripts/lib/proc.ts";
