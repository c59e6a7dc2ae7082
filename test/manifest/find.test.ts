import "reflect-metadata";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Toolkit, scanTools } from "../../src";
import { MANIFEST_ENV, MANIFEST_FILE } from "../../src/manifest";
import { cityManifest, removeTempTrees, tempTree, WEATHER_SOURCE } from "./temp-package";
import { scanErrorThrownBy } from "../support/scan-error";

/**
 * With no `manifest` option and no $TOOLNEXUS_MANIFEST, each `@Tool` class's manifest is
 * `toolnexus.manifest.json` in the directory of the file that defined it, or the nearest one
 * above, up to its package root (a directory with a package.json) and no further. The
 * process's working directory plays no part.
 */

type Ctor = new () => object;
const load = (dir: string, file = "dist/tools/weather.js"): Ctor =>
  (require(join(dir, file)) as { Weather: Ctor }).Weather;

let elsewhere: string;
beforeEach(() => {
  delete process.env[MANIFEST_ENV];
  // A manifest where the process "started": it must never be used.
  elsewhere = tempTree({
    "package.json": {},
    [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the working directory."),
  });
  jest.spyOn(process, "cwd").mockReturnValue(elsewhere);
});
afterEach(() => {
  jest.restoreAllMocks();
  delete process.env[MANIFEST_ENV];
});
afterAll(removeTempTrees);

describe("the manifest is found next to the code that defines the class", () => {
  it("at the package root, above the compiled file, wherever the process started", () => {
    const pkg = tempTree({
      "package.json": { name: "weather-app" },
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the package root."),
      "dist/tools/weather.ts": WEATHER_SOURCE,
    });
    const Weather = load(pkg);
    const [tool] = scanTools(new Weather());
    expect(tool!.description).toBe("From the package root.");
    expect(tool!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "The city." } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(new Toolkit([new Weather()]).get("forecast")!.description).toBe("From the package root.");
  });

  it("the nearest one wins: next to the compiled file before the package root's", () => {
    const pkg = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the package root."),
      [`dist/${MANIFEST_FILE}`]: cityManifest("Weather.forecast", "From dist."),
      "dist/tools/weather.ts": WEATHER_SOURCE,
    });
    expect(scanTools(new (load(pkg))())[0]!.description).toBe("From dist.");
  });

  it("the package root is searched, and nothing above it: a manifest of the enclosing project is not this package's", () => {
    const outer = tempTree({
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the enclosing project."),
      "inner/package.json": {},
      "inner/lib/weather.ts": WEATHER_SOURCE,
    });
    const error = scanErrorThrownBy(() => scanTools(new (load(outer, "inner/lib/weather.js"))()));
    expect(error.message).toBe(
      'Weather.forecast: Tool "forecast" needs a non-empty description: models choose tools by it. Use @Tool("what it does"). ' +
        `No ${MANIFEST_FILE} found (looked in: ${join(outer, "inner", "lib")}, ${join(outer, "inner")}; ${MANIFEST_ENV} not set). ` +
        `Fix: run \`npx toolnexus generate\` and put ${MANIFEST_FILE} next to the code or at its package root, pass { manifest: "path/to/${MANIFEST_FILE}" }, or set ${MANIFEST_ENV} to its path.`,
    );
  });

  it("a tool without type metadata says where the manifest was looked for and how to provide one", () => {
    const pkg = tempTree({
      "package.json": {},
      "dist/weather.ts": WEATHER_SOURCE.replace("@Tool()", '@Tool("Forecast.")'),
    });
    const error = scanErrorThrownBy(() => new Toolkit([new (load(pkg, "dist/weather.js"))()]));
    expect(error.message).toMatch(
      /^Weather\.forecast, parameter 0 \("city"\): no type metadata was emitted for this method\. /,
    );
    expect(error.message).toContain(
      ` No ${MANIFEST_FILE} found (looked in: ${join(pkg, "dist")}, ${pkg}; ${MANIFEST_ENV} not set). Fix: run \`npx toolnexus generate\``,
    );
  });

  it("$TOOLNEXUS_MANIFEST wins over the search; { manifest: false } uses none", () => {
    const pkg = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the package root."),
      "dist/weather.ts": WEATHER_SOURCE,
    });
    const Weather = load(pkg, "dist/weather.js");
    process.env[MANIFEST_ENV] = join(elsewhere, MANIFEST_FILE);
    expect(scanTools(new Weather())[0]!.description).toBe("From the working directory.");
    delete process.env[MANIFEST_ENV];
    const error = scanErrorThrownBy(() => scanTools(new Weather(), { manifest: false }));
    // Told to use none, nothing is said about where none was found.
    expect(error.message).toBe(
      'Weather.forecast: Tool "forecast" needs a non-empty description: models choose tools by it. Use @Tool("what it does").',
    );
  });

  it("a manifest written after a scan that found none is found by the next scan (generate --watch beside a running server)", () => {
    const pkg = tempTree({ "package.json": {}, "dist/weather.ts": WEATHER_SOURCE });
    const Weather = load(pkg, "dist/weather.js");
    expect(scanErrorThrownBy(() => scanTools(new Weather())).message).toContain(
      `No ${MANIFEST_FILE} found (looked in: ${join(pkg, "dist")}, ${pkg};`,
    );
    writeFileSync(
      join(pkg, MANIFEST_FILE),
      JSON.stringify(cityManifest("Weather.forecast", "Generated while the server ran.")),
    );
    expect(scanTools(new Weather())[0]!.description).toBe("Generated while the server ran.");
  });

  it("a manifest removed after it was found is looked for again: the next nearest one is used", () => {
    const pkg = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the package root."),
      [`dist/${MANIFEST_FILE}`]: cityManifest("Weather.forecast", "From dist."),
      "dist/weather.ts": WEATHER_SOURCE,
    });
    const Weather = load(pkg, "dist/weather.js");
    expect(scanTools(new Weather())[0]!.description).toBe("From dist.");
    rmSync(join(pkg, "dist", MANIFEST_FILE));
    expect(scanTools(new Weather())[0]!.description).toBe("From the package root.");
  });

  it("each class has its own: a base class from another package brings its package's manifest", () => {
    const base = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the base class's package."),
      "lib/weather.ts": WEATHER_SOURCE,
    });
    const app = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: cityManifest("Local.today", "From the app."),
      "dist/local.ts": `
        import { Tool } from "toolnexus";
        const { Weather } = require(${JSON.stringify(join(base, "lib", "weather.js"))});
        export class Local extends Weather {
          @Tool()
          today(city: string) {
            return city;
          }
        }
      `,
    });
    const Local = (require(join(app, "dist", "local.js")) as { Local: Ctor }).Local;
    expect(
      scanTools(new Local())
        .map((tool) => `${tool.name}: ${tool.description}`)
        .sort(),
    ).toEqual(["forecast: From the base class's package.", "today: From the app."]);
  });
});
