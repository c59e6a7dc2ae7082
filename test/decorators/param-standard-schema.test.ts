import "reflect-metadata";
import { IsInt, Min } from "class-validator";
import * as v from "valibot";
import { z } from "zod";
import { Args, Param, ScanError, scanTools, Tool, Toolkit } from "toolnexus";

const { type } = require("arktype") as typeof import("arktype", { with: { "resolution-mode": "import" } });

const EMAIL_PATTERN = z.email()["~standard"].jsonSchema.input({ target: "draft-07" }).pattern;

class Mailer {
  readonly sent: unknown[][] = [];

  @Tool("Sends a message")
  send(@Param({ schema: z.string().email(), description: "Who gets it" }) to: string, @Param() copies: number) {
    this.sent.push([to, copies]);
    return `sent ${copies} to ${to}`;
  }
}

describe("@Param({ schema: z.string().email() })", () => {
  it("declares the parameter with the JSON Schema zod writes, the description filled in", () => {
    expect(scanTools(new Mailer())[0]!.inputSchema).toEqual({
      type: "object",
      properties: {
        to: { type: "string", description: "Who gets it", format: "email", pattern: EMAIL_PATTERN },
        copies: { type: "number" },
      },
      required: ["to", "copies"],
      additionalProperties: false,
    });
  });

  it("runs the method with a value zod accepts", async () => {
    const mailer = new Mailer();
    expect(await new Toolkit([mailer]).execute("send", { to: "ada@example.com", copies: 2 })).toEqual({
      output: "sent 2 to ada@example.com",
      isError: false,
    });
  });

  it("reports zod's issue under the parameter's name, with the tool schema's problems in the same answer", async () => {
    const mailer = new Mailer();
    const kit = new Toolkit([mailer]);
    expect(await kit.execute("send", { to: "ada", copies: 2 })).toEqual({
      output: 'Invalid arguments for tool "send": "to": Invalid email address',
      isError: true,
      metadata: { tool: "send", error: "invalid_arguments" },
    });
    expect((await kit.execute("send", { to: "ada", copies: "two" })).output).toBe(
      'Invalid arguments for tool "send":\n- "copies" must be number, got string "two"\n- "to": Invalid email address',
    );
    expect((await kit.execute("send", { copies: 1 })).output).toBe(
      'Invalid arguments for tool "send": missing required argument "to"',
    );
    expect(mailer.sent).toEqual([]);
  });
});

describe("@Param with a Standard Schema", () => {
  it("gives the method the schema's output (transforms applied)", async () => {
    class Directory {
      @Tool("Looks a person up")
      find(
        @Param({ schema: z.string().trim().toLowerCase() }) name: string,
        @Param({ schema: z.string().transform((tags) => tags.split(",")) }) tags: string[],
      ) {
        return JSON.stringify({ name, tags });
      }
    }
    expect(await new Toolkit([new Directory()]).execute("find", { name: "  Ada ", tags: "math,code" })).toEqual({
      output: '{"name":"ada","tags":["math","code"]}',
      isError: false,
    });
  });

  it("is optional where the schema takes a value left out; its default reaches the method", async () => {
    class Search {
      @Tool("Searches")
      search(
        @Param({ schema: z.string() }) query: string,
        @Param({ schema: z.number().int().default(10) }) limit: number,
        @Param({ schema: z.string().optional() }) after?: string,
      ) {
        return JSON.stringify({ query, limit, after });
      }
    }
    const kit = new Toolkit([new Search()]);
    expect(kit.get("search")!.inputSchema.required).toEqual(["query"]);
    expect(await kit.execute("search", { query: "ada" })).toEqual({
      output: '{"query":"ada","limit":10}',
      isError: false,
    });
    expect(await kit.execute("search", { query: "ada", limit: 5, after: "x" })).toEqual({
      output: '{"query":"ada","limit":5,"after":"x"}',
      isError: false,
    });
  });

  it("optional: true leaves out a value its schema would not take left out", async () => {
    class Search {
      @Tool("Searches")
      search(@Param({ schema: z.string().min(2), optional: true }) query?: string) {
        return `query: ${String(query)}`;
      }
    }
    const kit = new Toolkit([new Search()]);
    expect(await kit.execute("search", {})).toEqual({ output: "query: undefined", isError: false });
    expect((await kit.execute("search", { query: "a" })).output).toBe(
      'Invalid arguments for tool "search": "query": Too small: expected string to have >=2 characters',
    );
  });

  it("a declared default is checked and transformed by the schema too", async () => {
    class Greeter {
      @Tool("Greets")
      greet(@Param({ schema: z.string().toUpperCase(), default: "world" }) name: string) {
        return `hello ${name}`;
      }
    }
    expect(await new Toolkit([new Greeter()]).execute("greet", {})).toEqual({ output: "hello WORLD", isError: false });
  });

  it("an object schema: nested paths start at the parameter", async () => {
    class Trips {
      @Tool("Books a trip")
      book(
        @Param({ schema: z.object({ stops: z.array(z.object({ city: z.string() })) }) })
        trip: {
          stops: Array<{ city: string }>;
        },
      ) {
        return trip.stops.map((stop) => stop.city).join(" → ");
      }
    }
    const kit = new Toolkit([new Trips()]);
    expect((await kit.execute("book", { trip: { stops: [{ city: "Oslo" }, { city: 1 }] } })).output).toBe(
      'Invalid arguments for tool "book": "trip.stops[1].city": Invalid input: expected string, received number',
    );
    expect((await kit.execute("book", { trip: { stops: [{ city: "Oslo" }, { city: "Rome" }] } })).output).toBe(
      "Oslo → Rome",
    );
  });

  it("an async schema is awaited", async () => {
    class Accounts {
      @Tool("Opens an account")
      open(@Param({ schema: z.string().refine(async (name) => name !== "taken", "is taken") }) name: string) {
        return `opened ${name}`;
      }
    }
    const kit = new Toolkit([new Accounts()]);
    expect((await kit.execute("open", { name: "taken" })).output).toBe(
      'Invalid arguments for tool "open": "name": is taken',
    );
    expect((await kit.execute("open", { name: "ada" })).output).toBe("opened ada");
  });

  it("arktype and valibot schemas the same way", async () => {
    const digits = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number));
    const withJsonSchema = {
      "~standard": {
        ...digits["~standard"],
        jsonSchema: { input: () => ({ type: "string", pattern: "^\\d+$" }), output: () => ({ type: "number" }) },
      },
    };
    class Orders {
      @Tool("Finds an order")
      find(@Param({ schema: type("string.email") }) customer: string, @Param({ schema: withJsonSchema }) id: number) {
        return JSON.stringify({ customer, id });
      }
    }
    const kit = new Toolkit([new Orders()]);
    expect(kit.get("find")!.inputSchema.properties).toEqual({
      customer: { type: "string", format: "email", pattern: expect.any(String) },
      id: { type: "string", pattern: "^\\d+$" },
    });
    expect(await kit.execute("find", { customer: "ada@example.com", id: "42" })).toEqual({
      output: '{"customer":"ada@example.com","id":42}',
      isError: false,
    });
    expect((await kit.execute("find", { customer: "ada", id: "x" })).output).toBe(
      'Invalid arguments for tool "find":\n- "customer": must be an email address (was "ada")\n- "id": Invalid format: Expected /^\\d+$/ but received "x"',
    );
  });

  it("a pattern only the schema runs (lookahead) does not fail the scan", async () => {
    class Numbers {
      @Tool("Parses a number")
      parse(@Param({ schema: type("string.numeric.parse") }) value: number) {
        return value * 2;
      }
    }
    const kit = new Toolkit([new Numbers()]);
    expect(kit.get("parse")!.inputSchema.properties!.value!.pattern).toContain("(?!");
    expect(await kit.execute("parse", { value: "21" })).toEqual({ output: "42", isError: false });
  });

  it("a schema that throws: an execution_failed result", async () => {
    const broken = {
      "~standard": {
        version: 1 as const,
        vendor: "acme",
        validate: () => Promise.reject(new Error("lookup down")),
        jsonSchema: { input: () => ({ type: "string" }) },
      },
    };
    class Broken {
      @Tool("Breaks")
      run(@Param({ schema: broken }) value: string) {
        return value;
      }
    }
    expect(await new Toolkit([new Broken()]).execute("run", { value: "x" })).toMatchObject({
      isError: true,
      output: `Tool "run" could not check its arguments: a parameter's schema threw: lookup down`,
      metadata: { error: "execution_failed" },
    });
  });

  it("one parameter's schema throwing while another's check is pending: an execution_failed result, the pending rejection handled", async () => {
    const schemaOf = (validate: () => unknown) => ({
      "~standard": { version: 1 as const, vendor: "acme", validate, jsonSchema: { input: () => ({ type: "string" }) } },
    });
    const pending = schemaOf(() => new Promise((_resolve, reject) => setTimeout(() => reject(new Error("late")), 5)));
    const throwing = schemaOf(() => {
      throw new Error("at once");
    });
    class Mixed {
      @Tool("Mixed")
      run(@Param({ schema: pending }) first: string, @Param({ schema: throwing }) second: string) {
        return first + second;
      }
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      expect(await new Toolkit([new Mixed()]).execute("run", { first: "a", second: "b" })).toMatchObject({
        isError: true,
        output: `Tool "run" could not check its arguments: a parameter's schema threw: at once`,
      });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a schema with no JSON form is refused at scan time, naming the parameter", () => {
    class Calendar {
      @Tool("Books a day")
      book(@Param({ schema: z.date() }) day: Date) {
        return day.toISOString();
      }
    }
    expect(() => scanTools(new Calendar())).toThrow(ScanError);
    expect(() => scanTools(new Calendar())).toThrow(
      'Calendar.book, parameter 0 ("day"): schema is a zod schema that cannot be written as JSON Schema: Date cannot be represented in JSON Schema.',
    );
  });

  it("beside a DTO parameter: both checks' problems in one answer", async () => {
    class Quantity {
      @IsInt()
      @Min(1)
      count!: number;
    }
    class Shop {
      @Tool("Orders")
      order(@Param({ schema: z.string().email() }) customer: string, @Param({ type: Quantity }) quantity: Quantity) {
        return `${quantity.count} for ${customer}`;
      }
    }
    const kit = new Toolkit([new Shop()]);
    expect((await kit.execute("order", { customer: "ada", quantity: { count: 0 } })).output).toBe(
      'Invalid arguments for tool "order":\n- "quantity.count" must be >= 1, got number 0\n- "customer": Invalid email address',
    );
    expect((await kit.execute("order", { customer: "ada@example.com", quantity: { count: 2 } })).output).toBe(
      "2 for ada@example.com",
    );
  });

  it("@Args is unaffected", async () => {
    class Point {
      @IsInt()
      x!: number;
    }
    class Plot {
      @Tool("Plots")
      plot(@Args() point: Point) {
        return `x=${point.x}`;
      }
    }
    expect(await new Toolkit([new Plot()]).execute("plot", { x: 3 })).toEqual({ output: "x=3", isError: false });
  });
});
