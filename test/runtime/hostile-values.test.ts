import "reflect-metadata";
import { defineTool, Param, Tool, Toolkit } from "../../src";

describe("a tool body's promise that carries its own then", () => {
  const own = (then: PromiseLike<unknown>["then"]) => Object.assign(Promise.resolve("ok"), { then });

  it.each([
    ["returns nothing", () => undefined],
    ["returns a non-promise", () => 42],
    [
      "throws",
      () => {
        throw new Error("then broke");
      },
    ],
  ])(
    "is settled by the real Promise machinery when its then %s (execute resolves to a result)",
    async (_label, then) => {
      const kit = new Toolkit([defineTool({ name: "w", description: "d", execute: () => own(then as never) })]);
      for (const ctx of [undefined, { timeout: 1_000 }]) {
        const call = kit.execute("w", {}, ctx);
        expect(call).toBeInstanceOf(Promise);
        expect(await call).toEqual({ output: "ok", isError: false });
      }
    },
  );
});

describe("arguments a host builds by hand", () => {
  const kit = new Toolkit([
    defineTool({
      name: "n",
      description: "d",
      validate: true,
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      execute: (args) => `${typeof args.n} ${String(args.n)} ${Object.getPrototypeOf(args) === Object.prototype}`,
    }),
  ]);

  it("are read as their own properties: an inherited value is not an argument", async () => {
    const inherited = Object.create({ n: "x" }) as Record<string, unknown>;
    const result = await kit.execute("n", inherited);
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toContain('missing required argument "n"');
  });

  it("of a class are copied to a plain object with the same own values", async () => {
    class Args {
      n = 3;
    }
    expect(await kit.execute("n", new Args())).toEqual({ output: "number 3 true", isError: false });
  });

  it("that cannot be read (a Proxy or getter that throws) are refused as a result, never a throw", async () => {
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys for you");
        },
      },
    );
    const getter = Object.defineProperty({}, "n", {
      enumerable: true,
      get() {
        throw new Error("getter broke");
      },
    });
    for (const args of [proxy, getter]) {
      let call: Promise<unknown> | undefined;
      expect(() => (call = kit.execute("n", args))).not.toThrow();
      const result = (await call) as { isError: boolean; output: string; metadata?: { error?: string } };
      expect(result.isError).toBe(true);
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(result.output).toMatch(/arguments could not be read \((no keys for you|getter broke)\)/);
    }
  });
});

describe("@Param({ schema }) and @Param({ items })", () => {
  it("keep the schema as it was scanned when the caller's object changes later", async () => {
    type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- mutated below through paths the schema type does not spell
    const filter = { type: "object", properties: { q: { type: "string" } } } as Loose;
    const item = { type: "string" } as Loose;
    class Svc {
      @Tool("t")
      t(@Param("filter", { schema: filter }) f: unknown, @Param("tags", { type: Array, items: item }) tags: string[]) {
        return JSON.stringify([f, tags]);
      }
    }
    const kit = new Toolkit([new Svc()]);
    filter.properties.q.type = "number";
    item.type = "number";
    expect(kit.get("t")!.inputSchema.properties!.filter).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
    });
    expect(await kit.execute("t", { filter: { q: "abc" }, tags: ["a"] })).toEqual({
      output: '[{"q":"abc"},["a"]]',
      isError: false,
    });
  });

  it("refuse a schema that is not data, naming the parameter", () => {
    class Svc {
      @Tool("t")
      t(@Param("f", { schema: { type: "string", format: (() => "x") as never } }) f: string) {
        return f;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(
      /Svc\.t, parameter 0 \("f"\): schema must be plain JSON Schema data/,
    );
  });
});
