/** Polls a condition on a running service (a database row, a file) until it holds or the time is up. */
type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

export async function eventually<T>(fn: () => T | Promise<T>, timeoutMs = 10_000, what = "condition"): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}
