/** Owner commands: `npm run cli -- <command>`, or `mysekai-ingest cli <command>` in the one-file build. Exit code 0 on success, 1 otherwise. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openArchiveStore, type ArchiveStore } from "./archive/store.ts";
import { ConfigError, loadConfig, type Config } from "./config/index.ts";
import { mapLocaleFor, timeZoneFor } from "./config/maps.ts";
import type { OwnerStore, SetupLinks } from "./store/ports/owner.ts";
import type { PageReads } from "./store/ports/pages.ts";
import { describeSave, formatRareText } from "./maps/index.ts";
import { isUnopened, openSave } from "./save/index.ts";
import { prepareRuntimeFiles } from "./runtime-files.ts";
import { openStores, type Stores } from "./stores.ts";
import { watchCommand } from "./cli-watch.ts";
import { cliUsage } from "./cli-help.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { cliMessages } from "./i18n/owner/index.ts";
import { parseCommand, UsageError, type ParsedCommand } from "./cli-args.ts";
import { apiTokensCommand, dataWebhooksCommand, playerPublicCommand } from "./cli-data.ts";
import { catalogueCommand } from "./cli-catalogue.ts";
import { JOB_STATES, type JobState } from "./store/model/jobs.ts";
import { PLAYER_ID_SHAPE } from "./store/model/owner.ts";
import { refusedPlayerId } from "./save/player-id.ts";

/** The owner's language: OWNER_LOCALE, else LC_ALL / LC_MESSAGES / LANG (read before the configuration: help needs none). */
const c = cliMessages(ownerLocaleOf());
const USAGE = cliUsage(c);

function saveIdArg(value: string | undefined): number {
  if (!value || !/^\d+$/.test(value)) throw new UsageError(c.needSaveId);
  return Number(value);
}

async function listJobs(pages: PageReads, state: string | undefined): Promise<void> {
  if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state)) throw new UsageError(c.unknownState(state));
  const rows = await pages.jobList(state as JobState | undefined);
  if (rows.length === 0) {
    console.log(c.noJobs(state ?? null));
    return;
  }
  // Stage and state are values the owner types after --state; the error is the raw text the log has.
  const h = c.jobColumns;
  const table = rows.map((job) => ({
    [h.job]: job.id,
    [h.subject]: job.saveId !== null ? c.jobSave(job.saveId) : c.jobReport(job.reportId!),
    [h.player]: job.playerId ?? "-",
    [h.stage]: job.stage,
    [h.state]: job.state,
    [h.attempts]: job.attempts,
    [h.next]: job.state === "pending" || job.state === "pending_retry" ? new Date(job.runAt).toISOString() : "-",
    [h.error]: (job.lastError ?? "").slice(0, 80),
  }));
  console.table(table);
}

/**
 * Links are shown under PUBLIC_BASE_URL (this shell's environment or .env, else the one the server last started
 * with); without either, under a placeholder the owner replaces.
 */
const baseOf = async (config: Config, links: SetupLinks) => config.publicBaseUrl ?? (await links.servedBase()) ?? `http://<your-server>:${config.port}`;

async function players(config: Config, owner: OwnerStore, { name: command, values, positionals }: ParsedCommand): Promise<number> {
  const [playerId] = positionals;
  if (command === "players public") return playerPublicCommand(owner.access, playerId, positionals[1]);
  if (command === "players list") {
    const rows = await owner.links.linkedPlayers();
    if (rows.length === 0) console.log(c.noLinkedPlayers);
    const base = await baseOf(config, owner.links);
    for (const row of rows) console.log(`${row.playerId}\t${row.name ?? "-"}\t${row.token === null ? c.linkHidden(row.playerId) : `${base}/p/${row.token}`}`);
    return 0;
  }
  // Never with a leading zero: the game's ids have none, and uploads naming one are refused (the same rule).
  if (!playerId || !PLAYER_ID_SHAPE.test(playerId) || refusedPlayerId(playerId) !== null) throw new UsageError(c.needPlayerId);
  if (command === "players unlock") {
    console.log(c.unlocked(playerId, await owner.links.resetLinkOnly(playerId)));
    return 0;
  }
  const name = (values.name as string | undefined) ?? null;
  if (name !== null && name.length > 64) throw new UsageError(c.nameTooLong);
  const route = (values.route as string | undefined) ?? null;
  const { player, replaced } = await owner.links.linkPlayer(playerId, name);
  // The link last: scripts take the command's last line.
  if (name !== null) console.log(c.named(name));
  console.log(c.link(playerId, `${await baseOf(config, owner.links)}/p/${player.token}`, replaced));
  // Routing stays in push_map.json (read at start), one home for it.
  if (route !== null) console.log(c.routeHint(join(config.configDir, "push_map.json"), JSON.stringify({ [playerId]: route })));
  return 0;
}

function inspect(config: Config, path: string | undefined): number {
  if (!path) throw new UsageError(c.needFile);
  if (config.keys.length === 0) {
    console.error(c.noKey);
    return 1;
  }
  const opened = openSave(new Uint8Array(readFileSync(path)), config.keys);
  if (isUnopened(opened)) {
    console.error(c.notASave(opened.kind, opened.reason));
    return 1;
  }
  const { maps } = config;
  const capturedAt = new Date(opened.save.now ?? Date.now());
  const outputs = describeSave(opened.save, { playerId: "unknown", capturedAt, locale: mapLocaleFor(maps, null), showHarvested: maps.showHarvested, timeZone: timeZoneFor(maps, null) });
  console.log(c.decrypted(opened.keyLabel, outputs.partial ? null : outputs.sites.length));
  for (const site of outputs.sites) {
    const drops = site.totals.reduce((sum, t) => sum + t.total, 0);
    console.log(c.siteLine(site.siteId, site.name, site.totals.length, drops));
  }
  console.log(formatRareText(outputs).trimEnd());
  return 0;
}

export async function runCli(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(c.configuration(error.in(ownerLocaleOf())));
    else console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

async function run(args: string[]): Promise<number> {
  const [command] = args;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  // Before the configuration: a mistyped command is named, whatever the environment holds.
  const parsed = parseCommand(args);
  const config = loadConfig();
  if (parsed.name === "inspect") return inspect(config, parsed.positionals[0]);
  // The one-file build keeps its migrations inside: they are unpacked before the database opens.
  await prepareRuntimeFiles();
  const archive = openArchiveStore(config.archive);
  const stores = await openStores(config, archive, true);
  try {
    return await runOn(stores, archive, config, parsed);
  } finally {
    await stores.close();
  }
}

async function runOn(stores: Stores, archive: ArchiveStore, config: Config, command: ParsedCommand): Promise<number> {
  const { owner, jobs: queue } = stores;
  const { values, positionals } = command;
  const now = Date.now();
  switch (command.name) {
    case "jobs":
      await listJobs(stores.pages, values.state as string | undefined);
      return 0;
    case "retry": {
      const all = values.failed === true;
      if (all === (positionals[0] !== undefined)) throw new UsageError(c.retryWhich);
      if (!all && (await stores.stageStore.playerOf(saveIdArg(positionals[0]))) === undefined) {
        console.error(c.noSuchSave(positionals[0]!));
        return 1;
      }
      const count = all ? await queue.retryFailed(now) : await queue.retryFailed(now, saveIdArg(positionals[0]));
      console.log(c.requeued(count.jobs, count.deliveries));
      return count.jobs + count.deliveries > 0 || all ? 0 : 1;
    }
    case "reprocess": {
      const saveId = saveIdArg(positionals[0]);
      const notify = values.notify === true;
      if (!(await queue.reprocess(saveId, notify, now))) {
        console.error(c.cannotReprocess(saveId));
        return 1;
      }
      console.log(c.reprocessed(saveId, notify));
      return 0;
    }
    case "gc": {
      const uploads = (await stores.uploads.expire(now, config.uploadTtlMs)) ?? 0;
      const temps = await archive.sweep(60 * 60 * 1000, now);
      console.log(c.gcSwept(uploads, temps));
      const total = { candidates: 0, reports: 0, jobs: 0, deliveries: 0, clearedSaves: 0, vacuumedPages: 0 };
      const retention = stores.retention;
      for (let more = true; more; ) {
        const round = await retention.sweep(now - config.storage.retentionMs);
        if (round === null) {
          console.log(c.gcBusy);
          return 0;
        }
        for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += round.counts[key];
        more = round.more;
      }
      console.log(c.gcRetention(config.storage.retentionMs / 86_400_000, total));
      return 0;
    }
    case "setup rotate":
      await owner.links.rotateSetupToken();
      console.log(c.newSetupToken(`${await baseOf(config, owner.links)}/setup`));
      return 0;
    case "sessions end":
      console.log(c.sessionsEnded(await owner.sessions.closeAll()));
      return 0;
    case "players add":
    case "players list":
    case "players public":
    case "players unlock":
      return players(config, owner, command);
    case "api-tokens add":
    case "api-tokens list":
    case "api-tokens revoke":
      return apiTokensCommand(owner.access, command);
    case "data-webhooks add":
    case "data-webhooks list":
    case "data-webhooks remove":
      return dataWebhooksCommand(owner.webhooks, command);
    case "watch add":
    case "watch remove":
    case "watch list":
    case "watch nudge":
      return watchCommand(stores.watch, stores.nudges, command);
    case "catalogue update":
    case "catalogue show":
      return catalogueCommand(owner.catalogue, command);
    default:
      throw new UsageError(c.unknownCommand(command.name));
  }
}

if (import.meta.main) process.exitCode = await runCli(process.argv.slice(2));
