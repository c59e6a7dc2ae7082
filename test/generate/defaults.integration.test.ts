import "reflect-metadata";
import { scanTools } from "../../src";
import { generateManifest, type GenerateResult } from "../../src/generate";
import type { ManifestParameter } from "../../src/manifest";
import { SettingsService } from "../fixtures/generate/defaults/src/settings";
import { fixtureProject, root } from "./support";

/**
 * test/fixtures/generate/defaults: a parameter's default is the schema's `default` when the
 * compiler can evaluate it to JSON (literals, enum members, arrays and objects of them); a
 * call or a variable is no documented default, and the parameter stays optional.
 */
let result: GenerateResult;
beforeAll(() => {
  result = generateManifest({ project: fixtureProject("defaults"), cwd: root });
});

const EVALUATED = {
  units: "celsius",
  level: 10,
  limit: 10,
  mode: "fast",
  verbose: false,
  offset: -1,
  tags: ["a", "b"],
  hours: { from: 0, to: 24 },
};
const NOT_EVALUATED = ["pageSize", "since"];

describe("defaults in the manifest", () => {
  const parameters = () =>
    result.manifest.tools["SettingsService.read"]!.parameters as Array<Extract<ManifestParameter, { kind: "param" }>>;

  it("records the value of literals, enum members, negative numbers, arrays and objects", () => {
    const defaults = Object.fromEntries(parameters().map((p) => [p.name, p.schema?.default]));
    expect(defaults).toEqual({ ...EVALUATED, pageSize: undefined, since: undefined });
  });

  it("leaves a variable or a call without default, and every defaulted parameter optional", () => {
    for (const name of NOT_EVALUATED)
      expect(parameters().find((p) => p.name === name)!.schema).toEqual({ type: "number" });
    expect(parameters().filter((p) => !p.optional)).toEqual([]);
  });
});

describe("defaults in the scanned tool (the manifest merged with decorator metadata)", () => {
  it("reach the exported tool schema, and no defaulted parameter is required", () => {
    const [tool] = scanTools(new SettingsService(), { manifest: result.manifest });
    const properties = tool!.inputSchema.properties as Record<string, { default?: unknown }>;
    expect(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.default]))).toEqual({
      ...EVALUATED,
      pageSize: undefined,
      since: undefined,
    });
    expect(tool!.inputSchema.required ?? []).toEqual([]);
  });
});
