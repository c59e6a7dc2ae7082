import "reflect-metadata";
import { runInThisContext } from "node:vm";
import { Ctx, Param, Tool, Toolkit, scanTools, type ToolContext } from "../../src";
import { ManifestError, type ManifestParameter, type ToolnexusManifest } from "../../src/manifest";
import { methodLooksMinified } from "../../src/manifest/minified";

/**
 * Minified code renames classes and parameters (one or two characters), and the manifest is
 * matched by those names. Short names alone are no proof (`id`, `Db`, `S3` are real names): the
 * method's code must look minified too, its body starting right at its parameter list
 * (`forecast(e,t){`) or two or more parameters all with minified names. Then a minified class
 * name is said to be one, with how to keep names; minified parameter names are forgiven when
 * nothing else differs (the manifest's names are used by position: regenerating could not
 * restore them); any other difference says minified.
 */
const param = (name: string, type: "string" | "integer"): ManifestParameter => ({
  kind: "param",
  name,
  optional: false,
  schema: { type },
});
const manifestOf = (
  key: string,
  parameters: ManifestParameter[],
  name = key.slice(key.indexOf(".") + 1),
): ToolnexusManifest => ({
  manifestVersion: 1,
  hash: "sha256:00000000000000000000000000000000",
  tools: {
    [key]: {
      name,
      file: "src/weather.ts",
      hash: "sha256:11111111111111111111111111111111",
      description: "The forecast for a city.",
      parameters,
    },
  },
});

/** A class compiled from `code` as a minifier wrote it, with `@Tool()` applied to `method` (decorators are not JavaScript yet). */
function minifiedClass(code: string, method: string): new () => object {
  const minified = runInThisContext(`(${code})`) as new () => object;
  Tool()(minified.prototype, method, Object.getOwnPropertyDescriptor(minified.prototype, method)!);
  return minified;
}

function manifestErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestError);
    return (error as Error).message;
  }
  throw new Error("expected a ManifestError");
}

describe("minified parameter names", () => {
  // What a minifier leaves of `forecast(city: string, days: number)`.
  class WeatherService {
    @Tool()
    forecast(e: string, t: number) {
      return `${e} for ${t} days`;
    }
  }
  const manifest = manifestOf("WeatherService.forecast", [param("city", "string"), param("days", "integer")]);

  it("with count and kinds matching, the manifest's names are used by position, and calls bind by them", async () => {
    const kit = new Toolkit([new WeatherService()], { manifest });
    expect(kit.get("forecast")!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city", "days"],
      additionalProperties: false,
    });
    expect(await kit.execute("forecast", { city: "Oslo", days: 3 })).toEqual({
      output: "Oslo for 3 days",
      isError: false,
    });
  });

  it("in code a minifier wrote (its body right at its parameters), even a single parameter's name comes from the manifest", async () => {
    // esbuild's `minify` with `keepNames` on `class UserService { get(userId: string) { ... } }`.
    const UserService = minifiedClass("class UserService{get(e){return`user ${e}`}}", "get");
    const kit = new Toolkit([new UserService()], {
      manifest: manifestOf("UserService.get", [param("userId", "string")]),
    });
    expect(kit.get("get")!.inputSchema).toEqual({
      type: "object",
      properties: { userId: { type: "string" } },
      required: ["userId"],
      additionalProperties: false,
    });
    expect(await kit.execute("get", { userId: "42" })).toEqual({ output: "user 42", isError: false });
  });

  it("a short name in readable code is a real rename: userId renamed id is a stale manifest", () => {
    class UserService {
      @Tool()
      get(id: string) {
        return `user ${id}`;
      }
    }
    expect(
      manifestErrorOf(() =>
        scanTools(new UserService(), { manifest: manifestOf("UserService.get", [param("userId", "string")]) }),
      ),
    ).toBe(
      'UserService.get: the manifest given in the options is stale for this method (parameter 0 is "userId" in the manifest, "id" in the code). Run `npx toolnexus generate` again, or scan without it ({ manifest: false }).',
    );
  });

  it("a name stated with @Param is never minified: a difference there is a stale manifest", () => {
    class Stated {
      @Tool()
      forecast(e: string, @Param("when") t: number) {
        return `${e}${t}`;
      }
    }
    expect(
      manifestErrorOf(() =>
        scanTools(new Stated(), {
          manifest: manifestOf("Stated.forecast", [param("city", "string"), param("days", "integer")]),
        }),
      ),
    ).toBe(
      'Stated.forecast: the manifest given in the options is stale for this method (parameter 1 is "days" in the manifest, "when" in the code). Run `npx toolnexus generate` again, or scan without it ({ manifest: false }).',
    );
  });

  it("any other difference says the names look minified, and that regenerating will not bring them back", () => {
    class Shorter {
      @Tool()
      forecast(e: string, @Ctx() t?: ToolContext) {
        return `${e}${t?.callId}`;
      }
    }
    expect(
      manifestErrorOf(() =>
        scanTools(new Shorter(), {
          manifest: manifestOf("Shorter.forecast", [param("city", "string"), param("days", "integer")]),
        }),
      ),
    ).toBe(
      "Shorter.forecast: the manifest given in the options does not fit this method (parameter 1 is @Param in the manifest, @Ctx() in the code), and the code's parameter names look minified. " +
        "Minifiers rename parameters even with esbuild `keepNames` or terser/SWC `keep_fnames`, and regenerating the manifest cannot undo that: " +
        'name them in the code with @Param("name"), or turn identifier mangling off (esbuild `minifyIdentifiers: false`, terser and SWC `mangle: false`).',
    );
  });

  it("names that are not all minified are a stale manifest as before", () => {
    class Renamed {
      @Tool()
      forecast(town: string, t: number) {
        return `${town}${t}`;
      }
    }
    expect(
      manifestErrorOf(() =>
        scanTools(new Renamed(), {
          manifest: manifestOf("Renamed.forecast", [param("city", "string"), param("days", "integer")]),
        }),
      ),
    ).toMatch(
      /^Renamed\.forecast: the manifest given in the options is stale for this method \(parameter 0 is "city" in the manifest, "town" in the code\)\./,
    );
  });
});

describe("minified class names", () => {
  const manifest = manifestOf("WeatherService.forecast", [param("city", "string")]);

  it("a short name the manifest lacks, whose method it lists under another class, in minified code, is refused as minified", () => {
    // What esbuild's `minify` leaves of `class WeatherService { forecast(city: string) { ... } }`.
    const e = minifiedClass("class e{forecast(t){return t}}", "forecast");
    expect(manifestErrorOf(() => scanTools(new e(), { manifest }))).toBe(
      'e.forecast: the class name "e" looks minified: the manifest given in the options has no class of that name, and lists forecast under WeatherService. ' +
        "Keep class names when minifying: esbuild `keepNames: true`, terser `keep_classnames: true, keep_fnames: true`, SWC `jsc.minify.keep_classnames` and `keep_fnames`, " +
        "webpack `new TerserPlugin({ terserOptions: { keep_classnames: true, keep_fnames: true } })`. (If e is its real name, run `npx toolnexus generate` to add it.)",
    );
  });

  it("a real short name like AI in readable code is not refused: its tools are built from run-time metadata", () => {
    class AI {
      @Tool("The forecast for a city, as a model would word it.")
      forecast(city: string) {
        return city;
      }
    }
    const [tool] = scanTools(new AI(), { manifest });
    expect(tool!.description).toBe("The forecast for a city, as a model would word it.");
    expect(tool!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("errors a missing entry causes mention it when the name looks minified", () => {
    class t {
      @Tool()
      today(city: string) {
        return city;
      }
    }
    const message = (() => {
      try {
        scanTools(new t(), { manifest });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected an error");
    })();
    expect(message).toBe(
      't.today: Tool "today" needs a non-empty description: models choose tools by it. Use @Tool("what it does"). ' +
        '(The manifest given in the options has no entry for t.today: run `npx toolnexus generate` to add it. If "t" is a minified name: Keep class names when minifying: ' +
        "esbuild `keepNames: true`, terser `keep_classnames: true, keep_fnames: true`, SWC `jsc.minify.keep_classnames` and `keep_fnames`, " +
        "webpack `new TerserPlugin({ terserOptions: { keep_classnames: true, keep_fnames: true } })`.)",
    );
  });
});

describe("what makes a method's code look minified", () => {
  const methodOf = (code: string): Function =>
    (runInThisContext(`(${code})`) as { prototype: { get: Function } }).prototype.get;

  it.each([
    ["its body starts right at its parameter list", "class A{get(e){return e}}"],
    ["also after defaults with brackets of their own", 'class A{async get(e,t={a:[1]},n=")"){return e}}'],
    ["two or more parameters, every name one or two characters", "class A {\n  get(e, t) {\n    return e;\n  }\n}"],
  ])("minified: %s", (_, code) => {
    expect(methodLooksMinified(methodOf(code))).toBe(true);
  });

  it.each([
    ["one short parameter in readable code", "class A {\n  get(id) {\n    return id;\n  }\n}"],
    ["readable code on one line", "class A { get(id) { return id; } }"],
    ["short and long names together", "class A { get(id, name) { return id + name; } }"],
  ])("not minified: %s", (_, code) => {
    expect(methodLooksMinified(methodOf(code))).toBe(false);
  });
});
