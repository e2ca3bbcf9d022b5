/** freePort lives with the dev launchers (scripts/lib/free-port.ts); re-exported for the tests. */
export * from "../../scripts/lib/free-port.ts";
