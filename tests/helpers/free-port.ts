/** Moved to scripts/lib/free-port.ts (the benches start the same servers); kept so that imports from tests/helpers still work. */
export * from "../../scripts/lib/free-port.ts";
