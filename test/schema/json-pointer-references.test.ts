/**
 * `$ref`s are JSON Pointers in a URI fragment: percent-encoded (`#/definitions/Record%3Cstring%2Cstring%3E`, as
 * typescript-json-schema writes the names of generic types), with `~1` for "/" and `~0` for "~". Every export resolves
 * them as validation does: a schema the validator takes is declared for every provider, the definitions its
 * references name inlined where the provider takes no references.
 */
import fc from "fast-check";
import type { JSONSchemaObject, Tool } from "../../src";
import { describeExport } from "../../src/providers/exporters";
import { EXPORT_FORMATS } from "../../src/providers/registry";
import type { GeminiTools } from "../../src/providers";
import { compileValidator } from "../../src/runtime/validation";
import { inlineRefs } from "../../src/schema/canonical";
import { definitionAt } from "../../src/schema/lowering";
import { definitionNamed, pointerTokens } from "../../src/schema/references";

/** `name` as one JSON Pointer token in a URI fragment: `~` and `/` escaped, then percent-encoded. */
function pointerToken(name: string): string {
  return encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"));
}

function toolOf(inputSchema: JSONSchemaObject): Tool {
  return {
    name: "probe",
    description: "A probe",
    inputSchema,
    source: "test",
    execute: () => Promise.resolve({ output: "ok", isError: false }),
  };
}

describe("JSON Pointer references", () => {
  it("reads a reference's tokens as a URI fragment: split at /, percent-decoded, then ~1 and ~0", () => {
    expect(pointerTokens("#/definitions/Record%3Cstring%2Cstring%3E")).toEqual([
      "definitions",
      "Record<string,string>",
    ]);
    expect(pointerTokens("#/$defs/a~1b~0c%20d")).toEqual(["$defs", "a/b~c d"]);
    // A percent-encoded "/" is part of the name, not a separator (as Ajv reads it).
    expect(pointerTokens("#/definitions/a%2Fb")).toEqual(["definitions", "a/b"]);
    expect(pointerTokens("#")).toEqual([]);
    expect(pointerTokens("#/definitions/50%")).toBeUndefined();
    expect(pointerTokens("other.json#/definitions/A")).toBeUndefined();
  });

  it("names a definition only by a two-token pointer under $defs or definitions", () => {
    expect(definitionNamed("#/definitions/Map%3CK%3E")).toEqual({ keyword: "definitions", name: "Map<K>" });
    expect(definitionNamed("#/properties/a")).toBeUndefined();
    expect(definitionNamed("#/$defs/A/properties/b")).toBeUndefined();
    expect(definitionNamed(42)).toBeUndefined();
  });

  it("finds no definition an object inherits", () => {
    expect(definitionAt({ definitions: {} }, "#/definitions/constructor")).toBeUndefined();
    expect(() => inlineRefs({ $ref: "#/definitions/toString" }, {}, () => undefined)).toThrow(
      'unresolvable $ref "#/definitions/toString" at /',
    );
  });

  it("still resolves a definitions map keyed by the references' own spelling (the schema generator's)", () => {
    const definitions = { "Record%3Cstring%2Cnumber%3E": { type: "object" } };
    expect(inlineRefs({ $ref: "#/definitions/Record%3Cstring%2Cnumber%3E" }, definitions, () => undefined)).toEqual({
      type: "object",
    });
  });

  it("declares for every provider, and validates the same, a schema whose definitions are named with <, >, ,, space, /, ~ and %", () => {
    const name = fc
      .array(fc.constantFrom("<", ">", ",", " ", "/", "~", "%", "0", "1", "a", "B", "%3C"), {
        minLength: 1,
        maxLength: 8,
      })
      .map((chars) => `T${chars.join("")}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 2, maxLength: 2 }),
        fc.constantFrom("definitions", "$defs"),
        ([choice, item], keyword) => {
          const ref = (definition: string) => `#/${keyword}/${pointerToken(definition)}`;
          const schema: JSONSchemaObject = {
            type: "object",
            properties: {
              choice: { $ref: ref(choice!) },
              items: { type: "array", items: { $ref: ref(item!) } },
            },
            required: ["choice"],
            [keyword]: {
              [choice!]: { type: "string", enum: ["x", "y"] },
              [item!]: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
            },
          };
          const validate = compileValidator(schema);
          expect(validate({ choice: "x", items: [{ n: 1 }] })).toEqual([]);
          expect(validate({ choice: "z" })).not.toEqual([]);
          expect(validate({ choice: "y", items: [{}] })).not.toEqual([]);
          for (const format of EXPORT_FORMATS) expect(() => describeExport(format, [toolOf(schema)])).not.toThrow();
          const parameters = (describeExport("gemini", [toolOf(schema)]).declarations as GeminiTools)[0]
            .functionDeclarations[0]!.parameters;
          expect(parameters.properties).toEqual({
            choice: { type: "string", enum: ["x", "y"] },
            items: {
              type: "array",
              items: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
            },
          });
        },
      ),
      { seed: 31, numRuns: 60 },
    );
  });

  it("declares the percent-encoded references typescript-json-schema writes for generic types", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      properties: { labels: { $ref: "#/definitions/Record%3Cstring%2Cstring%3E" } },
      definitions: { "Record<string,string>": { type: "object", additionalProperties: { type: "string" } } },
    };
    expect(compileValidator(schema)({ labels: { a: "b" } })).toEqual([]);
    for (const format of EXPORT_FORMATS) expect(() => describeExport(format, [toolOf(schema)])).not.toThrow();
  });
});
