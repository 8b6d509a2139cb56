import { describe, expect, it } from "vitest";
import type { Queryable } from "./client";
import { type PreparableQuery, type PreparedStatement, preparedStatement } from "./prepared";

/** Stand-ins for two databases: the cache only keys on their identity. */
const firstDb = {} as unknown as Queryable;
const secondDb = {} as unknown as Queryable;

function counted(): { build: () => PreparableQuery; names: string[] } {
  const names: string[] = [];
  return {
    names,
    build: () => ({
      prepare: (name): PreparedStatement => {
        names.push(name);
        return { execute: async () => name };
      },
    }),
  };
}

describe("prepared statements (decision 0300: in the database layer, for any area)", () => {
  it("builds a statement once per database and name, and runs the one it built", async () => {
    const { build, names } = counted();
    const first = preparedStatement(firstDb, "list_home", build);
    expect(preparedStatement(firstDb, "list_home", build)).toBe(first);
    expect(await first.execute({})).toBe("list_home");
    preparedStatement(firstDb, "list_saved", build);
    preparedStatement(secondDb, "list_home", build);
    expect(names).toEqual(["list_home", "list_saved", "list_home"]);
  });
});
