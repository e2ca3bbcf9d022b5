/** Moved to scripts/lib/dev-postgres.ts (the benches start the same servers); kept so that imports from tests/helpers still work. */
export * from "../../scripts/lib/dev-postgres.ts";
