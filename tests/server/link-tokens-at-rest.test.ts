/**
 * Players' links and the setup token at rest (issue 49): the database holds their sha256 and the token sealed with
 * the link key, which lives outside it (LINK_KEY on a hub, else DATA_DIR/link.key, 0600). A dump of every row opens
 * no player's page, takes no upload as them and serves no module; the owner still sees every link; an older
 * version's clear tokens keep working after the upgrade, are shown as before, and leave the database at the start.
 * On both deployments: one process on SQLite, and hub mode (PostgreSQL + a Swift bucket).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../src/sha256.ts";
import { deploymentHooks, deployments } from "../helpers/deployments.ts";
import { startServer, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliWith } from "../helpers/owner-cli.ts";
import { HUB_LINK_KEY, hubSettingsOf } from "../helpers/hub-link-key.ts";
import { dumpedValues } from "../helpers/link-tokens.ts";
import { writes } from "../helpers/store-writes.ts";

const PLAYER = "7485938820123456789";
const OLD_PLAYER = "7000000000000000002";
const TOKENISH = /^[A-Za-z0-9_-]{16,128}$/;


for (const deployment of deployments("link-tokens")) {
  describe.skipIf(deployment.skip !== null)(deployment.name, () => {
    const { settings, servers } = deploymentHooks(deployment);
    /** A hub's processes share LINK_KEY (the deployment's settings); one process on SQLite makes DATA_DIR/link.key. */
    const env = () => ({ NOTIFY_DEFAULT: "none", ...settings });
    const start = async (dataDir?: string) => {
      const server = await startServer({ env: env(), ...(dataDir && { dataDir }) });
      servers.push(server);
      return server;
    };
    const cli = async (server: RunningServer, ...args: string[]) => {
      const { code, out, err } = await ownerCliWith(hubSettingsOf(settings), server, ...args);
      expect({ code, err }).toEqual({ code: 0, err: "" });
      return out;
    };
    const linkIn = (text: string) => /\/p\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
    const setupIn = (html: string) => /\/setup\/([A-Za-z0-9_-]{16,})\//.exec(html)?.[1];

    test("a dump of every row opens no page, takes no upload, serves no module; the owner still sees each link; the key is in no row, file or log", async () => {
      const server = await start();
      const link = linkIn(await cli(server, "players", "add", PLAYER, "--name", "Mizuki"))!;
      const setup = setupIn(await (await fetch(`${server.url}/setup`)).text())!;
      expect([link, setup].every((token) => TOKENISH.test(token))).toBe(true);
      // The owner sees them again: the CLI's list and /setup.
      expect(linkIn(await cli(server, "players", "list"))).toBe(link);
      expect(await (await fetch(`${server.url}/setup`)).text()).toContain(`/p/${link}`);
      expect((await fetch(`${server.url}/p/${link}`)).status).toBe(200);
      expect((await fetch(`${server.url}/setup/${setup}/jp/surge.sgmodule`)).status).toBe(200);

      const values = await dumpedValues(deployment, server);
      expect(values).toContain(sha256Hex(link));
      expect(values.filter((value) => value.includes(link) || value.includes(setup))).toEqual([]);
      const tried = values.filter((value) => TOKENISH.test(value));
      expect(tried.length).toBeGreaterThan(2);
      for (const value of tried) {
        expect([value, (await fetch(`${server.url}/p/${value}`)).status]).toEqual([value, 404]);
        expect([value, (await fetch(`${server.url}/setup/${value}/jp/surge.sgmodule`)).status]).toEqual([value, 404]);
        const upload = await fetch(`${server.url}/p/${value}/uploadSaveData`, { method: "POST", body: "x", headers: { "x-upload-id": "dump-1", "x-chunk-index": "0", "x-total-chunks": "1" } });
        expect([value, upload.status]).toEqual([value, 404]);
      }
      const key = deployment.hub ? HUB_LINK_KEY : readFileSync(join(server.dataDir, "link.key"), "utf8").trim();
      if (!deployment.hub) {
        expect(statSync(join(server.dataDir, "link.key")).mode & 0o777).toBe(0o600);
        for (const file of ["ingest.sqlite", "ingest.sqlite-wal"]) {
          const bytes = readFileSync(join(server.dataDir, file)).toString("latin1");
          for (const secret of [link, setup, key]) expect(bytes.includes(secret)).toBe(false);
        }
      }
      expect(values.filter((value) => value.includes(key))).toEqual([]);
      expect(server.output()).not.toContain(key);
    }, 120_000);

    test("an older version's clear tokens keep working after the upgrade, are shown as before, and leave the database at the start", async () => {
      const before = await start();
      const [link, setup] = ["OlderVersionsClearLink_0123456789", "OlderVersionsClearSetup-012345678"];
      await writes(before, deployment).olderVersionsClearTokens(OLD_PLAYER, "Old", link, setup);
      await before.stop();

      const server = await start(deployment.hub ? undefined : before.dataDir);
      expect(server.output()).toContain("sealed the clear link and setup tokens an older version stored (they keep working)");
      expect((await fetch(`${server.url}/p/${link}`)).status).toBe(200);
      expect((await fetch(`${server.url}/setup/${setup}/jp/surge.sgmodule`)).status).toBe(200);
      expect(linkIn(await cli(server, "players", "list"))).toBe(link);
      expect(setupIn(await (await fetch(`${server.url}/setup`)).text())).toBe(setup);
      expect((await dumpedValues(deployment, server)).filter((value) => value.includes(link) || value.includes(setup))).toEqual([]);
    }, 120_000);
  });
}
