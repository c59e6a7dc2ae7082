import "reflect-metadata";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScanError, Tool, Toolkit, scanTools } from "../../src";
import {
  MANIFEST_ENV,
  MANIFEST_FILE,
  ManifestError,
  ManifestLookup,
  loadManifest,
  resolveManifest,
  validateManifest,
  type ToolnexusManifest,
} from "../../src/manifest";

class Weather {
  @Tool()
  forecast(city: string) {
    return city;
  }
}

const manifestFor = (description: string): ToolnexusManifest => ({
  manifestVersion: 1,
  hash: "sha256:00000000000000000000000000000000",
  tools: {
    "Weather.forecast": {
      name: "forecast",
      file: "src/weather.ts",
      hash: "sha256:11111111111111111111111111111111",
      description,
      parameters: [
        { kind: "param", name: "city", optional: false, schema: { type: "string", description: "The city." } },
      ],
    },
  },
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolnexus-manifest-"));
});
afterEach(() => {
  jest.restoreAllMocks();
  delete process.env[MANIFEST_ENV];
  rmSync(dir, { recursive: true, force: true });
});
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};

describe("where the manifest comes from", () => {
  it(`${MANIFEST_FILE} in the working directory is not used: where a process starts does not change a schema`, () => {
    write(MANIFEST_FILE, manifestFor("Forecast, from the working directory."));
    jest.spyOn(process, "cwd").mockReturnValue(dir);
    expect(() => scanTools(new Weather())).toThrow(/needs a non-empty description/);
    expect(resolveManifest(undefined)).toBeInstanceOf(ManifestLookup);
  });

  it("manifest: false uses none, not even $TOOLNEXUS_MANIFEST", () => {
    process.env[MANIFEST_ENV] = write("elsewhere.json", manifestFor("Forecast."));
    expect(() => scanTools(new Weather(), { manifest: false })).toThrow(
      new ScanError(
        'Weather.forecast: Tool "forecast" needs a non-empty description: models choose tools by it. Use @Tool("what it does").',
      ),
    );
    expect(() => new Toolkit([new Weather()], { manifest: false })).toThrow(ScanError);
    expect(resolveManifest(false)).toBeUndefined();
  });

  it(`$${MANIFEST_ENV} names the file instead, and must exist`, () => {
    process.env[MANIFEST_ENV] = write("elsewhere.json", manifestFor("Forecast, from the environment."));
    expect(scanTools(new Weather())[0]!.description).toBe("Forecast, from the environment.");
    process.env[MANIFEST_ENV] = join(dir, "missing.json");
    expect(() => scanTools(new Weather())).toThrow(ManifestError);
  });

  it("a path or an object can be passed; a Toolkit reads it once, when a decorated instance needs it", () => {
    const path = write("m.json", manifestFor("Forecast, from a path."));
    expect(scanTools(new Weather(), { manifest: path })[0]!.description).toBe("Forecast, from a path.");
    expect(scanTools(new Weather(), { manifest: manifestFor("Forecast, from an object.") })[0]!.description).toBe(
      "Forecast, from an object.",
    );
    // A toolkit of plain tools never touches the file system for a manifest.
    expect(() => new Toolkit([], { manifest: join(dir, "missing.json") })).not.toThrow();
    expect(() => new Toolkit([new Weather()], { manifest: join(dir, "missing.json") })).toThrow(ManifestError);
  });

  it("a file that changes is read again", () => {
    const path = write("m.json", manifestFor("First."));
    expect(loadManifest(path).tools["Weather.forecast"]!.description).toBe("First.");
    writeFileSync(path, JSON.stringify(manifestFor("Second, longer.")));
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect(scanTools(new Weather(), { manifest: path })[0]!.description).toBe("Second, longer.");
  });
});

describe("a manifest that cannot be used is a ManifestError (a ScanError) naming the file", () => {
  it("unreadable, not JSON, of a newer format", () => {
    const missing = join(dir, "missing.json");
    expect(() => loadManifest(missing)).toThrow(ManifestError);
    expect(() => loadManifest(missing)).toThrow(`Cannot read the toolnexus manifest ${missing}:`);
    const broken = write("broken.json", "{ nope");
    expect(() => loadManifest(broken)).toThrow(
      new RegExp(
        `^The toolnexus manifest ${broken} is not valid JSON \\(.*\\)\\. Regenerate it with \`npx toolnexus generate\`\\.$`,
      ),
    );
    const newer = write("newer.json", { ...manifestFor("x"), manifestVersion: 2 });
    expect(() => loadManifest(newer)).toThrow(
      `The toolnexus manifest ${newer} has format version 2, written by a newer toolnexus; this one reads version 1. Upgrade toolnexus, or regenerate the manifest with this version's \`npx toolnexus generate\`.`,
    );
    expect(new ManifestError("x")).toBeInstanceOf(ScanError);
  });

  it("malformed entries are pointed at", () => {
    const invalid = (value: unknown) => {
      try {
        validateManifest(value, "m.json");
      } catch (error) {
        expect(error).toBeInstanceOf(ManifestError);
        return (error as Error).message
          .replace("The toolnexus manifest m.json is invalid: ", "")
          .replace(" Regenerate it with `npx toolnexus generate`.", "");
      }
      throw new Error("expected the manifest to be refused");
    };
    const good = manifestFor("x");
    const entry = good.tools["Weather.forecast"]!;
    expect(invalid([])).toBe("the root must be an object.");
    expect(invalid({ ...good, manifestVersion: "1" })).toBe("/manifestVersion must be 1.");
    expect(invalid({ ...good, hash: 1 })).toBe("/hash must be a string.");
    expect(invalid({ ...good, tools: [] })).toBe('/tools must be an object keyed by "Class.method".');
    expect(invalid({ ...good, tools: { forecast: entry } })).toBe(
      '/tools/forecast must be keyed "ClassName.methodName" (or "<file>#ClassName.methodName").',
    );
    expect(invalid({ ...good, tools: { "src/other.ts#Weather.forecast": entry } })).toBe(
      '/tools/src~1other.ts#Weather.forecast must be keyed with its own file ("src/weather.ts#Weather.forecast").',
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": entry, "src/weather.ts#Weather.forecast": entry } })).toBe(
      '/tools/src~1weather.ts#Weather.forecast cannot be listed with "Weather.forecast" too: a class name is keyed with its file everywhere or nowhere.',
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": { ...entry, compiledFile: 1 } } })).toBe(
      "/tools/Weather.forecast/compiledFile must be a string when present.",
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": { ...entry, file: 3 } } })).toBe(
      "/tools/Weather.forecast/file must be a string.",
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": { ...entry, input: "yes" } } })).toBe(
      "/tools/Weather.forecast/input must be true when present.",
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": { ...entry, parameters: {} } } })).toBe(
      "/tools/Weather.forecast/parameters must be an array.",
    );
    expect(invalid({ ...good, tools: { "Weather.forecast": { ...entry, parameters: [{ kind: "other" }] } } })).toBe(
      '/tools/Weather.forecast/parameters/0/kind must be "param", "args" or "ctx".',
    );
    expect(
      invalid({ ...good, tools: { "Weather.forecast": { ...entry, parameters: [{ kind: "param", name: "city" }] } } }),
    ).toBe("/tools/Weather.forecast/parameters/0/optional must be true or false.");
    expect(
      invalid({
        ...good,
        tools: { "Weather.forecast": { ...entry, parameters: [{ kind: "param", optional: true, schema: [] }] } },
      }),
    ).toBe("/tools/Weather.forecast/parameters/0/schema must be a JSON Schema object when present.");
    expect(
      invalid({
        ...good,
        tools: { "Weather.forecast": { ...entry, parameters: [{ kind: "param", optional: true, convert: "class" }] } },
      }),
    ).toBe('/tools/Weather.forecast/parameters/0/className must name the class when convert is "class".');
    // Unknown keys are allowed (a newer generator may add some within a format version).
    expect(validateManifest({ ...good, generatedBy: "future" }, "m.json")).toBeDefined();
  });

  it("an invalid manifest passed as an object is refused at scan time", () => {
    expect(() =>
      scanTools(new Weather(), { manifest: { manifestVersion: 1 } as unknown as ToolnexusManifest }),
    ).toThrow(
      new ManifestError(
        "The toolnexus manifest given in the options is invalid: /hash must be a string. Regenerate it with `npx toolnexus generate`.",
      ),
    );
  });
});
