/** The throwaway PostgreSQL is the dev launcher's (scripts/lib/dev-postgres.ts), shared with the benchmarks. */
export * from "../../scripts/lib/dev-postgres.ts";
