/** A TCP port free on 127.0.0.1 right now, for servers that need one named up front (PostgreSQL, Swift). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
}
