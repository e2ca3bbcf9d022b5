/** The process probes live with the dev launchers (scripts/lib/proc.ts); re-exported for the tests. */
export * from "../../scripts/lib/proc.ts";
