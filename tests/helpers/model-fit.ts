/** Type-level checks that a schema's rows are exactly the model's records (tests/unit/model-*.test.ts). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Accepts only `true`: a row type that drifts from its model fails `npx tsc --noEmit` at the call. */
export const fits = (..._checks: true[]): number => _checks.length;
