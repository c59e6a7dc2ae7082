import "reflect-metadata";
import { IsIn, IsInt, IsOptional, IsString } from "class-validator";
import { Ctx, Param, Tool, Toolkit, scanTools, type ToolContext } from "../../src";
import { ManifestError, type ManifestParameter, type ManifestTool, type ToolnexusManifest } from "../../src/manifest";
import { scanErrorThrownBy } from "../support/scan-error";

/** A manifest as `toolnexus generate` would write it, for the given entries. */
function manifestOf(
  tools: Record<string, Partial<ManifestTool> & { parameters: ManifestParameter[] }>,
): ToolnexusManifest {
  return {
    manifestVersion: 1,
    hash: "sha256:00000000000000000000000000000000",
    tools: Object.fromEntries(
      Object.entries(tools).map(([key, tool]) => [
        key,
        { file: "src/service.ts", hash: "sha256:11111111111111111111111111111111", ...tool },
      ]),
    ),
  };
}
const param = (
  name: string,
  schema: Record<string, unknown> | undefined,
  extra: Partial<Extract<ManifestParameter, { kind: "param" }>> = {},
): ManifestParameter => ({
  kind: "param",
  name,
  optional: false,
  ...(schema !== undefined ? { schema } : {}),
  ...extra,
});

describe("precedence: explicit decorator options > manifest > design:paramtypes", () => {
  it("the manifest wins over design:paramtypes (a literal union is a String to metadata)", () => {
    class Service {
      @Tool("Sets the mode")
      set(mode: "fast" | "slow", level: number) {
        return `${mode}${level}`;
      }
    }
    const manifest = manifestOf({
      "Service.set": {
        parameters: [
          param("mode", { type: "string", enum: ["fast", "slow"], description: "How fast." }),
          param("level", { type: "integer" }, { optional: true }),
        ],
      },
    });
    const [tool] = scanTools(new Service(), { manifest });
    expect(tool!.inputSchema).toEqual({
      type: "object",
      properties: {
        mode: { type: "string", description: "How fast.", enum: ["fast", "slow"] },
        level: { type: "integer" },
      },
      required: ["mode"],
      additionalProperties: false,
    });
    // Without it, metadata alone.
    expect(scanTools(new Service(), { manifest: false })[0]!.inputSchema).toEqual({
      type: "object",
      properties: { mode: { type: "string" }, level: { type: "number" } },
      required: ["mode", "level"],
      additionalProperties: false,
    });
  });

  it("@Param options win: enum, description, optional: false; constraints apply to the manifest's schema", () => {
    class Service {
      @Tool("Searches")
      search(
        @Param({ enum: ["a", "b"] }) sort: string,
        @Param({ description: "Said by the decorator", minLength: 2 }) query: string,
        @Param({ optional: false }) page: number,
        @Param({ maxItems: 3 }) tags: string[],
      ) {
        return [sort, query, page, tags].join();
      }
    }
    const manifest = manifestOf({
      "Service.search": {
        parameters: [
          param("sort", { type: "string", enum: ["a", "b", "c"], description: "Order." }),
          param("query", { type: "string", description: "From JSDoc." }),
          param("page", { type: "number" }, { optional: true }),
          param("tags", { type: "array", items: { type: "string", enum: ["x", "y"] } }),
        ],
      },
    });
    expect(scanTools(new Service(), { manifest })[0]!.inputSchema).toEqual({
      type: "object",
      properties: {
        sort: { type: "string", description: "Order.", enum: ["a", "b"] },
        query: { type: "string", description: "Said by the decorator", minLength: 2 },
        page: { type: "number" },
        tags: { type: "array", items: { type: "string", enum: ["x", "y"] }, maxItems: 3 },
      },
      required: ["sort", "query", "page", "tags"],
      additionalProperties: false,
    });
  });

  it("@Param({ schema }) replaces the manifest's schema (which may still describe it)", () => {
    class Service {
      @Tool("Runs")
      run(
        @Param({ schema: { type: "string", pattern: "^[a-z]+$" } }) code: string,
        @Param({ schema: { type: "integer", description: "Mine." } }) n: number,
      ) {
        return code + n;
      }
    }
    const manifest = manifestOf({
      "Service.run": {
        parameters: [
          param("code", { type: "string", description: "A code." }),
          param("n", { type: "number", description: "Theirs." }),
        ],
      },
    });
    expect(scanTools(new Service(), { manifest })[0]!.inputSchema.properties).toEqual({
      code: { type: "string", description: "A code.", pattern: "^[a-z]+$" },
      n: { type: "integer", description: "Mine." },
    });
  });

  it("@Tool's description wins; the manifest's JSDoc fills in where the decorator has none", () => {
    class Service {
      @Tool("From the decorator")
      a() {
        return "";
      }
      @Tool()
      b() {
        return "";
      }
    }
    const manifest = manifestOf({
      "Service.a": { description: "From JSDoc a", parameters: [] },
      "Service.b": { description: "From JSDoc b", parameters: [] },
    });
    expect(scanTools(new Service(), { manifest }).map((t) => t.description)).toEqual([
      "From the decorator",
      "From JSDoc b",
    ]);
  });

  it("a tuple from the manifest keeps its element schemas; item counts and descriptions still apply", () => {
    class Service {
      @Tool("Places")
      place(@Param({ description: "Where.", minItems: 1 }) at: [number, number?]) {
        return at;
      }
    }
    const manifest = manifestOf({
      "Service.place": {
        parameters: [
          param("at", { type: "array", items: [{ type: "number" }, { type: "number" }], minItems: 1, maxItems: 2 }),
        ],
      },
    });
    expect(scanTools(new Service(), { manifest })[0]!.inputSchema.properties!.at).toEqual({
      type: "array",
      description: "Where.",
      items: [{ type: "number" }, { type: "number" }],
      minItems: 1,
      maxItems: 2,
    });
  });

  it("a constraint that does not fit the manifest's type is refused as it is without a manifest", () => {
    class Service {
      @Tool("Places")
      place(@Param({ minimum: 1 }) where: { x: number }) {
        return where;
      }
    }
    const manifest = manifestOf({
      "Service.place": { parameters: [param("where", { type: "object", properties: { x: { type: "number" } } })] },
    });
    expect(scanErrorThrownBy(() => scanTools(new Service(), { manifest })).message).toBe(
      'Service.place, parameter 0 ("where"): minimum applies to a single scalar or array type, but this parameter is object.',
    );
  });
});

describe("DTOs: class-validator's decorators and the TypeScript types together", () => {
  it("the decorators decide properties, required and constraints; the manifest adds descriptions and literal values", () => {
    class Filter {
      @IsString() kind!: string;
      @IsOptional() @IsInt() limit?: number;
      secret?: string;
    }
    class Service {
      @Tool("Filters")
      filter(filter: Filter) {
        return filter instanceof Filter;
      }
    }
    const manifest = manifestOf({
      "Service.filter": {
        parameters: [
          param(
            "filter",
            {
              type: "object",
              description: "What to keep.",
              properties: {
                kind: { type: "string", description: "Which kind.", enum: ["a", "b"] },
                limit: { type: "number", description: "At most." },
                secret: { type: "string" },
              },
              required: ["kind", "secret"],
              additionalProperties: false,
            },
            { convert: "class", className: "Filter" },
          ),
        ],
      },
    });
    expect(scanTools(new Service(), { manifest })[0]!.inputSchema.properties!.filter).toEqual({
      type: "object",
      description: "What to keep.",
      properties: {
        kind: { type: "string", description: "Which kind.", enum: ["a", "b"] },
        limit: { type: "integer", description: "At most." },
      },
      required: ["kind"],
      additionalProperties: false,
    });
  });

  it("a decorator that contradicts the TypeScript type is an error, not a silent pick", () => {
    class Line {
      @IsString() quantity!: number;
    }
    class Size {
      @IsIn(["s", "m", "xl"]) size!: string;
    }
    class Service {
      @Tool("Adds")
      add(line: Line) {
        return line;
      }
    }
    class Sizes {
      @Tool("Sizes")
      size(size: Size) {
        return size;
      }
    }
    const object = (properties: Record<string, unknown>) => ({
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    const manifest = manifestOf({
      "Service.add": {
        parameters: [param("line", object({ quantity: { type: "number" } }), { convert: "class", className: "Line" })],
      },
      "Sizes.size": {
        parameters: [
          param("size", object({ size: { type: "string", enum: ["s", "m"] } }), {
            convert: "class",
            className: "Size",
          }),
        ],
      },
    });
    expect(scanErrorThrownBy(() => scanTools(new Service(), { manifest })).message).toBe(
      'Service.add, parameter 0 ("line"): property "quantity": class-validator makes it string, but its TypeScript type is number. Make the decorators and the type agree.',
    );
    expect(scanErrorThrownBy(() => scanTools(new Sizes(), { manifest })).message).toBe(
      'Sizes.size, parameter 0 ("size"): property "size": class-validator allows "xl", which its TypeScript type does not ("s", "m"). Make the decorators and the type agree.',
    );
  });
});

describe("conversions the manifest knows of", () => {
  it("Date arrays become Dates even where metadata only says Array", async () => {
    class Service {
      @Tool("Counts dates")
      count(days: Date[]) {
        return days.every((day) => day instanceof Date) ? `${days.length} dates` : "not dates";
      }
    }
    const manifest = manifestOf({
      "Service.count": {
        parameters: [
          param("days", { type: "array", items: { type: "string", format: "date-time" } }, { convert: "date[]" }),
        ],
      },
    });
    const kit = new Toolkit([new Service()], { manifest });
    expect(await kit.execute("count", { days: ["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"] })).toEqual({
      output: "2 dates",
      isError: false,
    });
  });

  it("a class instance needs the class at run time: without metadata, say it with @Param({ type })", () => {
    class Line {
      @IsString() sku!: string;
    }
    class Service {
      @Tool("Adds")
      add(line: Line, lines: Line[]) {
        return [line, lines];
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Service.prototype, "add"); // as esbuild would emit it
    const lineSchema = {
      type: "object",
      properties: { sku: { type: "string" } },
      required: ["sku"],
      additionalProperties: false,
    };
    const manifest = manifestOf({
      "Service.add": {
        parameters: [
          param("line", lineSchema, { convert: "class", className: "Line" }),
          param("lines", { type: "array", items: lineSchema }, { convert: "class[]", className: "Line" }),
        ],
      },
    });
    expect(scanErrorThrownBy(() => scanTools(new Service(), { manifest })).message).toBe(
      'Service.add, parameter 0 ("line"): its type is a Line instance, and the class itself is not known at run time (no type metadata was emitted). Say it with @Param({ type: Line }).',
    );
    class WithArray {
      @Tool("Adds")
      add(@Param({ type: Line }) line: Line, lines: Line[]) {
        return [line, lines];
      }
    }
    expect(
      scanErrorThrownBy(() =>
        scanTools(new WithArray(), { manifest: manifestOf({ "WithArray.add": manifest.tools["Service.add"]! }) }),
      ).message,
    ).toBe(
      'WithArray.add, parameter 1 ("lines"): its type is an array of Line instances, and the class itself is not known at run time. Say it with @Param({ type: [Line] }).',
    );
  });
});

describe("a manifest that no longer fits the code", () => {
  class Service {
    @Tool("Greets")
    greet(name: string, @Ctx() ctx?: ToolContext) {
      return `${name} ${ctx?.callId}`;
    }
  }
  const stale = (tool: Partial<ManifestTool> & { parameters: ManifestParameter[] }) => () =>
    scanTools(new Service(), { manifest: manifestOf({ "Service.greet": tool }) });
  const prefix = "Service.greet: the manifest given in the options is stale for this method";
  const fix = "Run `npx toolnexus generate` again, or scan without it ({ manifest: false }).";

  it("is a ManifestError naming what differs: parameter count, kind, name, tool name", () => {
    const errorOf = (run: () => unknown) => {
      const error = scanErrorThrownBy(run);
      expect(error).toBeInstanceOf(ManifestError);
      return error.message;
    };
    expect(errorOf(stale({ parameters: [param("name", { type: "string" })] }))).toBe(
      `${prefix} (it lists 1 parameter (name), the method has 2 (name, @Ctx)). ${fix}`,
    );
    expect(errorOf(stale({ parameters: [param("name", { type: "string" }), param("ctx", {})] }))).toBe(
      `${prefix} (parameter 1 is @Param in the manifest, @Ctx() in the code). ${fix}`,
    );
    expect(errorOf(stale({ parameters: [param("who", { type: "string" }), { kind: "ctx" }] }))).toBe(
      `${prefix} (parameter 0 is "who" in the manifest, "name" in the code). ${fix}`,
    );
    expect(errorOf(stale({ name: "hello", parameters: [param("name", { type: "string" }), { kind: "ctx" }] }))).toBe(
      `${prefix} (it names the tool "hello", the code "greet"). ${fix}`,
    );
  });

  it("a fitting entry applies; a class the manifest does not know keeps metadata's behaviour", () => {
    expect(
      stale({ parameters: [param("name", { type: "string", description: "Who." }), { kind: "ctx" }] })()[0]!.inputSchema
        .properties,
    ).toEqual({
      name: { type: "string", description: "Who." },
    });
    class Other {
      @Tool("Other")
      other(n: number) {
        return n;
      }
    }
    expect(
      scanTools(new Other(), { manifest: manifestOf({ "Service.greet": { parameters: [] } }) })[0]!.inputSchema
        .properties,
    ).toEqual({ n: { type: "number" } });
  });

  it("when a tool is missing from the manifest and metadata cannot do without it, the error says so", () => {
    class Bare {
      @Tool("Bare")
      run(value: string) {
        return value;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Bare.prototype, "run");
    expect(
      scanErrorThrownBy(() => scanTools(new Bare(), { manifest: manifestOf({ "Service.greet": { parameters: [] } }) }))
        .message,
    ).toMatch(
      /^Bare\.run, parameter 0 \("value"\): no type metadata was emitted for this method\. .* \(The manifest given in the options has no entry for Bare\.run: run `npx toolnexus generate` to add it\.\)$/,
    );
  });
});
