import "reflect-metadata";
import { IsInt, IsString, Matches, Max, Min } from "class-validator";
import { Param, ScanError, Tool, Toolkit } from "../../src";
import { sourceParameters } from "../../src/schema/parameter-names";

describe("parameter names next to string defaults that look like comments", () => {
  it("reads every parameter when a default contains // or /* */", () => {
    expect(
      sourceParameters(function (url = "http://x.y", b: number) {
        return [url, b];
      }).map((p) => p.name),
    ).toEqual(["url", "b"]);
    expect(
      sourceParameters(function (a = "/* x", b = "*/", c: number) {
        return [a, b, c];
      }).map((p) => p.name),
    ).toEqual(["a", "b", "c"]);
  });

  it("scans a tool whose first parameter defaults to a URL", async () => {
    class Fetcher {
      @Tool("Fetch a page")
      fetch(@Param() url: string = "http://example.com", @Param() depth: number) {
        return `${url} ${depth}`;
      }
    }
    const kit = new Toolkit([new Fetcher()]);
    expect(kit.get("fetch")!.inputSchema.required).toEqual(["depth"]);
    expect((await kit.execute("fetch", { depth: 2 })).output).toBe("http://example.com 2");
  });
});

describe("@IsInt with @Min/@Max in any order", () => {
  class Below {
    @Min(1) @Max(9) @IsInt() x!: number;
  }
  class Above {
    @IsInt() @Min(1) @Max(9) x!: number;
  }
  class Untyped {
    @Min(1) x!: number;
  }
  class Svc {
    @Tool("below") below(@Param() dto: Below) {
      return dto.x;
    }
    @Tool("above") above(@Param() dto: Above) {
      return dto.x;
    }
    @Tool("untyped") untyped(@Param() dto: Untyped) {
      return dto.x;
    }
  }

  it("is an integer with both bounds whichever decorator comes first", () => {
    const kit = new Toolkit([new Svc()]);
    const expected = { type: "integer", minimum: 1, maximum: 9 };
    expect(kit.get("below")!.inputSchema.properties!.dto!.properties!.x).toEqual(expected);
    expect(kit.get("above")!.inputSchema.properties!.dto!.properties!.x).toEqual(expected);
  });

  it("takes the type from the property's TypeScript type when only a bound is declared", () => {
    const kit = new Toolkit([new Svc()]);
    expect(kit.get("untyped")!.inputSchema.properties!.dto!.properties!.x).toEqual({ type: "number", minimum: 1 });
  });
});

describe("regular-expression flags", () => {
  it("refuses @Param({ pattern }) with a flag JSON Schema cannot express, naming the parameter", () => {
    class Svc {
      @Tool("t") t(@Param({ pattern: /^[a-z]+$/i }) s: string) {
        return s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(ScanError);
    expect(() => new Toolkit([new Svc()])).toThrow(/Svc\.t, parameter 0 \("s"\): the pattern's flags "i" cannot be expressed in JSON Schema/);
  });

  it("refuses @Matches with a flag, naming the property", () => {
    class Dto {
      @IsString() @Matches(/^[a-z]+$/i) s!: string;
    }
    class Svc {
      @Tool("t") t(@Param() dto: Dto) {
        return dto.s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(/Dto\.s: the pattern's flags "i" cannot be expressed in JSON Schema/);
  });

  it("keeps a pattern without flags", () => {
    class Svc {
      @Tool("t") t(@Param({ pattern: /^[a-z]+$/ }) s: string) {
        return s;
      }
    }
    expect(new Toolkit([new Svc()]).get("t")!.inputSchema.properties!.s).toEqual({ type: "string", pattern: "^[a-z]+$" });
  });
});

describe("@Param({ default })", () => {
  it("passes the declared default when the argument is absent, a fresh copy each call", async () => {
    const seen: unknown[] = [];
    class Svc {
      @Tool("t")
      t(@Param({ default: 5 }) n: number, @Param({ default: ["a"], type: [String] }) tags: string[]) {
        seen.push(tags);
        tags.push("mutated");
        return n;
      }
    }
    const kit = new Toolkit([new Svc()]);
    expect(await kit.execute("t", {})).toEqual({ output: "5", isError: false });
    expect(await kit.execute("t", { n: 7 })).toEqual({ output: "7", isError: false });
    expect(seen[1]).toEqual(["a", "mutated"]);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it("declares the default next to an explicit schema too (the schema's own default wins)", () => {
    class Svc {
      @Tool("t")
      t(
        @Param("units", { schema: { type: "string", enum: ["c", "f"] }, default: "c", description: "Units" }) units: string,
        @Param("mode", { schema: { type: "string", default: "fast" }, default: "slow" }) mode: string,
      ) {
        return `${units} ${mode}`;
      }
    }
    const schema = new Toolkit([new Svc()]).get("t")!.inputSchema;
    expect(schema.properties!.units).toEqual({ type: "string", description: "Units", enum: ["c", "f"], default: "c" });
    expect(schema.properties!.mode!.default).toBe("fast");
    expect(schema.required).toBeUndefined();
  });
});

describe("arrays of Date", () => {
  it("arrive as Date instances", async () => {
    class Svc {
      @Tool("t")
      t(@Param({ type: [Date] }) days: Date[]) {
        return days.map((d) => d instanceof Date && d.toISOString());
      }
    }
    const kit = new Toolkit([new Svc()]);
    expect(kit.get("t")!.inputSchema.properties!.days).toEqual({ type: "array", items: { type: "string", format: "date-time" } });
    const result = await kit.execute("t", { days: ["2024-01-01T00:00:00Z"] });
    expect(JSON.parse(result.output)).toEqual(["2024-01-01T00:00:00.000Z"]);
  });
});
