/** The owner commands' argument table: what each command takes, and errors that name what it does not. */
import { describe, expect, test } from "bun:test";
import { parseCommand } from "../../src/cli-args.ts";

const problem = (args: string[]) => {
  try {
    parseCommand(args);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("owner command arguments", () => {
  test("options, flags and positionals by the table, = and -- forms included", () => {
    expect(parseCommand(["players", "add", "123", "--name", "Alice", "--route=tg"])).toEqual({ name: "players add", values: { name: "Alice", route: "tg" }, positionals: ["123"] });
    expect(parseCommand(["retry", "--failed"])).toEqual({ name: "retry", values: { failed: true }, positionals: [] });
    expect(parseCommand(["jobs", "--state", "failed"]).values).toEqual({ state: "failed" });
    expect(parseCommand(["data-webhooks", "add", "--bearer=-starts-with-dash", "--", "https://x.example/h"])).toEqual({
      name: "data-webhooks add",
      values: { bearer: "-starts-with-dash" },
      positionals: ["https://x.example/h"],
    });
  });

  test("an unknown option, command or action is named; so are missing values and extra arguments", () => {
    expect(problem(["data-webhooks", "add", "https://x.example/h", "--format", "json-zstd"])).toBe("data-webhooks add: unknown option --format (it takes --bearer, --payload, --check-url)");
    expect(problem(["gc", "--force"])).toBe("gc: unknown option --force (it takes none)");
    expect(problem(["jobs", "-s", "done"])).toBe("jobs: unknown option -s (it takes --state)");
    expect(problem(["players", "add", "123", "--name"])).toBe("players add: --name needs a value");
    expect(problem(["players", "add", "123", "--name", "--route", "tg"])).toBe('players add: --name needs a value (one that starts with "-" goes as --name=<value>)');
    expect(problem(["reprocess", "1", "--notify=yes"])).toBe("reprocess: --notify takes no value");
    expect(problem(["inspect"])).toBe("inspect: 1 more argument needed");
    expect(problem(["players", "public", "123", "on", "now"])).toBe('players public: unexpected argument "now"');
    expect(problem(["jobs", "failed"])).toBe('jobs: unexpected argument "failed"');
    expect(problem(["cleanup"])).toBe('unknown command "cleanup"');
    expect(problem(["setup"])).toBe('unknown setup action "" (one of: rotate)');
    expect(problem(["api-tokens", "delete", "bot"])).toBe('unknown api-tokens action "delete" (one of: add, list, revoke)');
  });
});
