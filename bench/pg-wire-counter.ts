/**
 * A TCP proxy in front of PostgreSQL that reads the wire protocol both ways and counts what a service sends and
 * gets, without touching the service (counts, unlike times, do not depend on the machine's load): round trips
 * (ReadyForQuery, and client turns: a send after the server last spoke on that connection), statements by their
 * SQL (Parse names a statement, Bind + Execute run it; or a simple Query), the bytes each statement sends (Bind:
 * its parameters) and gets back (DataRows) and its rows, notifications delivered (LISTEN wake-ups), connections
 * opened, and the peak number busy at once (awaiting an answer or inside a transaction): when it reaches the
 * pool's size, queries waited for a connection.
 */
import { startTcpTap, type Delay, type TcpTap, type Tap } from "./tcp-tap.ts";

export interface StatementCount {
  runs: number;
  rows: number;
  /** Bytes of its Bind messages (parameters) or Query text. */
  sent: number;
  /** Bytes of the DataRows it returned. */
  received: number;
}

export interface WireCounts {
  readyForQuery: number;
  turns: number;
  notifications: number;
  connections: number;
  bytesToServer: number;
  bytesFromServer: number;
  statements: Record<string, StatementCount>;
}

export interface WireCounter {
  /** host:port to connect to instead of the server. */
  port: number;
  snapshot(): WireCounts;
  /** The most connections busy at once since the last reset. */
  peakBusy(): number;
  resetPeak(): void;
  served: TcpTap["served"];
  stop(): Promise<void>;
}

/** The SQL's shape, short: quotes, column lists and values dropped, so each statement kind is one label. */
export function statementLabel(sql: string): string {
  let s = sql.replace(/"/g, "").replace(/\s+/g, " ").trim().toLowerCase();
  s = s.replace(/^select (?!pg_)(?:(?!\bfrom\b).)* from /, "select … from ");
  s = s.replace(/^insert into (\S+) \([^)]*\) values .*?(?= on conflict| returning|$)/, "insert into $1 values …");
  s = s.replace(/ returning .*$/, " returning …");
  s = s.replace(/ set (.*?) where /, (_, set: string) => ` set ${set.split(/, (?=[a-z_]+ =)/).map((part) => part.split(" = ")[0]).join(", ")} where `);
  s = s.replace(/\$\d+/g, "?");
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

const cstring = (buf: Buffer, from: number): [string, number] => {
  const end = buf.indexOf(0, from);
  return [buf.toString("utf8", from, end), end + 1];
};

/** `delay`: the distance to the server (tcp-tap.ts). */
export async function startPgWireCounter(upstreamPort: number, upstreamHost = "127.0.0.1", delay?: Delay): Promise<WireCounter> {
  const totals: WireCounts = { readyForQuery: 0, turns: 0, notifications: 0, connections: 0, bytesToServer: 0, bytesFromServer: 0, statements: {} };
  let busy = 0;
  let peak = 0;
  const stat = (label: string) => (totals.statements[label] ??= { runs: 0, rows: 0, sent: 0, received: 0 });

  const tapFor = (): Tap => {
    totals.connections++;
    const named = new Map<string, string>();
    const portals = new Map<string, string>();
    const running: string[] = [];
    let started = false;
    let skipSslAnswer = false;
    let clientBuf = Buffer.alloc(0);
    let serverBuf = Buffer.alloc(0);
    let serverSpoke = true;
    let awaiting = 0;
    let inTransaction = false;
    let wasBusy = false;
    const updateBusy = () => {
      const now = awaiting > 0 || inTransaction;
      if (now !== wasBusy) busy += now ? 1 : -1;
      wasBusy = now;
      peak = Math.max(peak, busy);
    };

    const fromClient = (message: Buffer) => {
      const type = String.fromCharCode(message[0]!);
      if (type === "P") {
        const [name, at] = cstring(message, 5);
        named.set(name, statementLabel(cstring(message, at)[0]));
      } else if (type === "B") {
        const [portal, at] = cstring(message, 5);
        const label = named.get(cstring(message, at)[0]) ?? "?";
        portals.set(portal, label);
        stat(label).sent += message.length;
      } else if (type === "E") {
        const label = portals.get(cstring(message, 5)[0]) ?? "?";
        stat(label).runs++;
        running.push(label);
      } else if (type === "Q") {
        const label = statementLabel(cstring(message, 5)[0]);
        const count = stat(label);
        count.runs++;
        count.sent += message.length;
        running.push(label);
        awaiting++;
      } else if (type === "S") awaiting++;
      updateBusy();
    };

    const fromServer = (message: Buffer) => {
      const type = String.fromCharCode(message[0]!);
      if (type === "D" && running.length > 0) {
        const count = stat(running[0]!);
        count.rows++;
        count.received += message.length;
      } else if (type === "C" || type === "I") running.shift();
      else if (type === "E") running.length = 0;
      else if (type === "A") totals.notifications++;
      else if (type === "Z") {
        totals.readyForQuery++;
        awaiting = Math.max(0, awaiting - 1);
        inTransaction = message[5] !== 0x49; // 'I': idle; 'T' / 'E': inside a transaction
        running.length = 0;
        updateBusy();
      }
    };

    return {
      fromClient: (chunk) => {
        totals.bytesToServer += chunk.length;
        if (serverSpoke) totals.turns++;
        serverSpoke = false;
        clientBuf = Buffer.concat([clientBuf, chunk]);
        for (;;) {
          if (!started) {
            if (clientBuf.length < 8) return;
            const length = clientBuf.readInt32BE(0);
            if (clientBuf.length < length) return;
            if (clientBuf.readInt32BE(4) === 80877103) skipSslAnswer = true;
            else started = true;
            clientBuf = clientBuf.subarray(length);
            continue;
          }
          if (clientBuf.length < 5) return;
          const length = clientBuf.readInt32BE(1) + 1;
          if (clientBuf.length < length) return;
          fromClient(clientBuf.subarray(0, length));
          clientBuf = clientBuf.subarray(length);
        }
      },
      fromServer: (chunk) => {
        totals.bytesFromServer += chunk.length;
        serverSpoke = true;
        serverBuf = Buffer.concat([serverBuf, chunk]);
        if (skipSslAnswer && serverBuf.length > 0) {
          skipSslAnswer = false;
          serverBuf = serverBuf.subarray(1);
        }
        for (;;) {
          if (serverBuf.length < 5) return;
          const length = serverBuf.readInt32BE(1) + 1;
          if (serverBuf.length < length) return;
          fromServer(serverBuf.subarray(0, length));
          serverBuf = serverBuf.subarray(length);
        }
      },
      closed: () => {
        if (wasBusy) busy--;
        wasBusy = false;
      },
    };
  };

  const tap = await startTcpTap({ host: upstreamHost, port: upstreamPort }, tapFor, delay);
  return {
    port: tap.port,
    snapshot: () => structuredClone(totals),
    peakBusy: () => peak,
    resetPeak: () => void (peak = busy),
    served: tap.served,
    stop: tap.stop,
  };
}

/** What happened between two snapshots. */
export function wireDelta(before: WireCounts, after: WireCounts): WireCounts {
  const statements: Record<string, StatementCount> = {};
  for (const [label, count] of Object.entries(after.statements)) {
    const was = before.statements[label] ?? { runs: 0, rows: 0, sent: 0, received: 0 };
    if (count.runs === was.runs) continue;
    statements[label] = { runs: count.runs - was.runs, rows: count.rows - was.rows, sent: count.sent - was.sent, received: count.received - was.received };
  }
  return {
    readyForQuery: after.readyForQuery - before.readyForQuery,
    turns: after.turns - before.turns,
    notifications: after.notifications - before.notifications,
    connections: after.connections - before.connections,
    bytesToServer: after.bytesToServer - before.bytesToServer,
    bytesFromServer: after.bytesFromServer - before.bytesFromServer,
    statements,
  };
}
