/** @jsxImportSource hono/jsx */
/** A player's own switch for public reads of their latest save (the owner's is `cli players public`). */

export function PublicReadsSection({ path, on, publicUrl }: { path: string; on: boolean; publicUrl: string }) {
  return (
    <section>
      <h2>Public reads</h2>
      {on ? (
        <p>
          On: anyone with your player id can read your latest save as JSON at <code>{publicUrl}</code> (tools such as
          bots and planners use it).
        </p>
      ) : (
        <p>Off: nobody reads your save without a token the server's owner made.</p>
      )}
      <form method="post" action={`${path}/public`}>
        <input type="hidden" name="on" value={on ? "0" : "1"} />
        <button type="submit">{on ? "Turn public reads off" : "Turn public reads on"}</button>
      </form>
    </section>
  );
}
