/**
 * `npm run init` (`mysekai-ingest init`): the first-run wizard. In the owner's language it asks for the game's keys,
 * one chat channel (proved with a test message) and the address phones reach, then writes `.env` in the current
 * folder, and `config/bark_map.json` for Bark. Nothing is written before the last answer; EOF or Ctrl-C writes nothing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PORT } from "./config/index.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { reasonIn } from "./config/parse.ts";
import { initMessages } from "./i18n/owner/index.ts";
import { askChannel, BARK_ALIAS } from "./init/channel.ts";
import { renderEnv, writeBarkKey, writeEnvFile } from "./init/env-file.ts";
import { InputEnded, LineReader, Prompter, terminalEcho } from "./init/prompts.ts";
import { askKeys, askLanguage, askPublicBase } from "./init/steps.ts";

/** `start`: the command that starts the server, as the owner types it (`npm start`, or the one-file build's own). */
export async function runInit(start = "npm start", dir = process.cwd()): Promise<number> {
  const lines = new LineReader(Bun.stdin.stream());
  let locale = ownerLocaleOf();
  const p = new Prompter(lines, initMessages(locale));
  const stop = () => {
    terminalEcho(true);
    p.say(`\n${p.m.stopped}`);
    process.exit(130);
  };
  process.on("SIGINT", stop);
  try {
    locale = await askLanguage(p, locale);
    p.say(p.m.intro);
    if (existsSync(join(dir, ".env")) && !(await p.confirm(p.m.envExists))) {
      p.say(p.m.envKept);
      return 0;
    }
    const keys = await askKeys(p, locale);
    const channel = await askChannel(p, locale);
    const publicBase = await askPublicBase(p, locale);
    const text = renderEnv({ OWNER_LOCALE: locale, ...keys, ...channel.env, ...(publicBase ? { PUBLIC_BASE_URL: publicBase } : {}) }, p.m);
    // The last answer is in: from here on nothing waits for input, and each file appears whole or not at all.
    process.off("SIGINT", stop);
    if (channel.barkKey !== null) p.say(p.m.barkWritten(writeBarkKey(dir, BARK_ALIAS, channel.barkKey)));
    p.say(p.m.written(writeEnvFile(dir, text)));
    p.say(`\n${p.m.next}\n${p.m.nextStart(start)}\n${p.m.nextSetup(`http://localhost:${DEFAULT_PORT}/setup`)}`);
    if (publicBase !== null) p.say(p.m.setupElsewhere);
    return 0;
  } catch (error) {
    // A file it could not write (a folder not writable, a bark_map.json that is not JSON): said, not a stack trace.
    if (!(error instanceof InputEnded)) console.error(`✗ ${reasonIn(locale)(error)}`);
    else p.say(`\n${p.m.stopped}`);
    return 1;
  } finally {
    process.off("SIGINT", stop);
    lines.close();
  }
}

if (import.meta.main) process.exitCode = await runInit();
