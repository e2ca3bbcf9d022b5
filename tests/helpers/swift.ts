/** The throwaway Swift is the dev launcher's (scripts/lib/dev-swift.ts), shared with the benchmarks. */
export * from "../../scripts/lib/dev-swift.ts";
