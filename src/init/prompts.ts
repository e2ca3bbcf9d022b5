/**
 * The wizard's questions over stdin, a line at a time: a terminal or a pipe alike (tests pipe the answers). A line is
 * capped (a longer one is refused whole and asked again, never held); the end of input ends the wizard (InputEnded),
 * before anything is written.
 */
import type { InitMessages } from "../i18n/owner/index.ts";

export const MAX_LINE = 2048;

/** stdin ended (EOF, Ctrl-D) before an answer: the wizard stops and writes nothing. */
export class InputEnded extends Error {
  constructor() {
    super("input ended");
  }
}

const TOO_LONG = Symbol("too long");

/** What is read of a byte stream (Bun.stdin.stream()'s reader). */
interface Chunks {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}

/** Lines from a byte stream, each at most MAX_LINE characters; the rest of a longer one is skipped, not buffered. */
export class LineReader {
  private readonly reader: Chunks;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private skipping = false;
  private ended = false;

  constructor(stream: { getReader(): Chunks }) {
    this.reader = stream.getReader();
  }

  /** Lets go of stdin, so that the process can end. */
  close(): void {
    void this.reader.cancel().catch(() => {});
  }

  async next(): Promise<string | typeof TOO_LONG> {
    for (;;) {
      const newline = this.buffer.indexOf("\n");
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, "");
        this.buffer = this.buffer.slice(newline + 1);
        if (this.skipping || line.length > MAX_LINE) {
          this.skipping = false;
          return TOO_LONG;
        }
        return line;
      }
      if (this.buffer.length > MAX_LINE) {
        this.buffer = "";
        this.skipping = true;
      }
      if (this.ended) throw new InputEnded();
      const { value, done } = await this.reader.read();
      if (done || value === undefined) {
        this.ended = true;
        // A last line without its newline is still an answer.
        if (this.buffer !== "" && !this.skipping) this.buffer += "\n";
      } else this.buffer += this.decoder.decode(value, { stream: true });
    }
  }
}

/** A terminal's echo of what is typed: off while a secret is typed, so it is never on screen (a pipe has none). */
export function terminalEcho(on: boolean): void {
  if (!process.stdin.isTTY) return;
  try {
    Bun.spawnSync(["stty", on ? "echo" : "-echo"], { stdin: "inherit" });
  } catch {
    // No stty (Windows): what is typed shows, as in any prompt; it is still never printed back.
  }
}

export interface Choice<T> {
  value: T;
  label: string;
}

/** The questions the steps ask, in the chosen language (`m` can change once the language is chosen). */
export class Prompter {
  constructor(
    private readonly lines: LineReader,
    public m: InitMessages,
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
  ) {}

  say(text: string): void {
    this.write(`${text}\n`);
  }

  /** One answer, trimmed; Enter gives `fallback` when there is one. */
  async ask(question: string, fallback?: string): Promise<string> {
    for (;;) {
      this.write(`${question}${fallback ? ` [${fallback}]` : ""}: `);
      const line = await this.lines.next();
      if (line === TOO_LONG) {
        this.say(`  ✗ ${this.m.tooLong(MAX_LINE)}`);
        continue;
      }
      const answer = line.trim();
      return answer === "" && fallback !== undefined ? fallback : answer;
    }
  }

  /** A key or token: not shown on a terminal while typed, never printed back. */
  async askSecret(question: string): Promise<string> {
    terminalEcho(false);
    try {
      return await this.ask(question);
    } finally {
      terminalEcho(true);
      if (process.stdin.isTTY) this.write("\n");
    }
  }

  /** Asks (a secret: `askSecret`) until `check` takes the answer (it returns the value, or throws with the reason said in `reason`). */
  async askValid<T>(question: string, check: (answer: string) => T, reason: (error: unknown) => string, secret = false): Promise<T> {
    for (;;) {
      const answer = secret ? await this.askSecret(question) : await this.ask(question);
      try {
        return check(answer);
      } catch (error) {
        this.say(`  ✗ ${reason(error)}`);
      }
    }
  }

  /** A numbered list; the answer is its number (Enter: `fallback`, 1-based). */
  async choose<T>(question: string, choices: Choice<T>[], fallback = 1): Promise<T> {
    this.say(question);
    choices.forEach((choice, index) => this.say(`  ${index + 1}) ${choice.label}`));
    for (;;) {
      const answer = await this.ask(">", String(fallback));
      const index = /^\d{1,3}$/.test(answer) ? Number(answer) - 1 : -1;
      if (index >= 0 && index < choices.length) return choices[index]!.value;
      this.say(`  ✗ ${this.m.answerNumber(choices.length)}`);
    }
  }

  async confirm(question: string): Promise<boolean> {
    for (;;) {
      const answer = (await this.ask(`${question} [y/N]`)).toLowerCase();
      if (["", "n", "no", "否", "不"].includes(answer)) return false;
      if (["y", "yes", "是", "好"].includes(answer)) return true;
      this.say(`  ✗ ${this.m.answerYesNo}`);
    }
  }
}
