/** A strict reader of the Prometheus text format (0.0.4) for the tests: every line must parse. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  if (!text.endsWith("\n")) throw new Error("exposition must end with a newline");
  for (const line of text.slice(0, -1).split("\n")) {
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(meta[3]!)) throw new Error(`bad type: ${line}`);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? "";
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (const part of labelText.matchAll(labelPattern)) {
      labels[part[1]!] = part[2]!.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
      consumed = (part.index ?? 0) + part[0].length;
    }
    if (consumed !== labelText.length) throw new Error(`bad labels: ${line}`);
    const value = match[3] === "+Inf" ? Infinity : match[3] === "-Inf" ? -Infinity : Number(match[3]);
    if (Number.isNaN(value) && match[3] !== "NaN") throw new Error(`bad value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return { samples, types };
}

/** The value of one sample, or 0 when the series does not exist yet. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}
