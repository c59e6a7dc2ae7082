import { LIMITS, type JSONSchemaObject } from "../../src";
import { ChangeLog, inlineAllRefs } from "../../src/schema/lowering";
import { SchemaSizeError } from "../../src/schema/schema-size";
import { selfContained } from "../../src/schema/self-contained";
import { DOUBLING_LEVELS, doublingSchema } from "../support/doubling-schema";

const { MAX_SCHEMA_SIZE } = LIMITS;

/** The two ways toolnexus inlines a schema's references: for its own tools (fromMcp, Standard Schemas) and for a provider without references (Gemini). */
const inliners: Array<[string, (schema: JSONSchemaObject) => JSONSchemaObject]> = [
  ["selfContained", (schema) => selfContained(schema)],
  ["the providers' lowering", (schema) => inlineAllRefs(schema, new ChangeLog("t", true))],
];

/** The error `inline` throws for `schema`; fails the test when it throws none, or another. */
function sizeErrorOf(inline: (schema: JSONSchemaObject) => unknown, schema: JSONSchemaObject): SchemaSizeError {
  try {
    inline(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaSizeError);
    return error as SchemaSizeError;
  }
  throw new Error("expected a SchemaSizeError");
}

/** A schema whose `tree` refers to a string definition with a description of `length` characters. */
function describedString(length: number): JSONSchemaObject {
  return {
    type: "object",
    properties: { tree: { $ref: "#/$defs/text" } },
    $defs: { text: { type: "string", description: "x".repeat(length) } },
  };
}

/** The JSON length of `describedString(length)` inlined: everything but the description's characters. */
const DESCRIBED_STRING_OVERHEAD = JSON.stringify({
  type: "object",
  properties: { tree: { type: "string", description: "" } },
}).length;

describe("the bound on the size of a schema made self-contained", () => {
  it("is MAX_SCHEMA_SIZE, a million characters of JSON", () => {
    expect(MAX_SCHEMA_SIZE).toBe(1_000_000);
  });

  describe.each(inliners)("%s", (_name, inline) => {
    it(`refuses a schema whose $defs double at each of ${DOUBLING_LEVELS} levels as soon as the copy passes the limit, naming where and the limit`, () => {
      const error = sizeErrorOf(inline, doublingSchema());
      expect(error.limit).toBe(MAX_SCHEMA_SIZE);
      expect(error.pointer).toMatch(/^\/properties\/tree(?:\/properties(?:\/(?:left|right))?)+$/);
      expect(error.message).toBe(
        `with its $refs inlined it grows past 1,000,000 characters of JSON (toolnexus's limit, MAX_SCHEMA_SIZE) at ${error.pointer}: ` +
          "each $ref becomes a copy of its definition, so definitions referenced from many places multiply",
      );
    });

    it("counts the schema as JSON.stringify writes it: exactly MAX_SCHEMA_SIZE characters pass, one more is refused", () => {
      const atTheLimit = inline(describedString(MAX_SCHEMA_SIZE - DESCRIBED_STRING_OVERHEAD));
      expect(JSON.stringify(atTheLimit)).toHaveLength(MAX_SCHEMA_SIZE);
      expect(sizeErrorOf(inline, describedString(MAX_SCHEMA_SIZE - DESCRIBED_STRING_OVERHEAD + 1)).pointer).toBe(
        "/properties/tree/description",
      );
    });

    it("counts values kept as they are (enum, default, examples) once for every copy of their definition", () => {
      const colors = Array.from({ length: 28_000 }, (_, i) => `color-${i}`);
      const palette = (copies: number): JSONSchemaObject => ({
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: copies }, (_, i) => [`color${i}`, { $ref: "#/$defs/color" }]),
        ),
        $defs: { color: { type: "string", enum: colors, default: colors[0] } },
      });
      expect(JSON.stringify(inline(palette(2))).length).toBeLessThan(MAX_SCHEMA_SIZE);
      expect(sizeErrorOf(inline, palette(3)).pointer).toBe("/properties/color2/enum");
    });

    it("bounds recursion as well: definitions that refer to each other in a ring, each twice, unfolded several times round", () => {
      const ring = 10;
      const $defs = Object.fromEntries(
        Array.from({ length: ring }, (_, i) => {
          const next = { $ref: `#/$defs/link${(i + 1) % ring}` };
          return [`link${i}`, { type: "object", properties: { left: next, right: next } }];
        }),
      );
      const error = sizeErrorOf(inline, { type: "object", properties: { tree: { $ref: "#/$defs/link0" } }, $defs });
      expect(error.pointer).toMatch(/^\/properties\/tree\/properties\//);
    });

    it("keeps a large schema within the limit whole: 2,000 definitions of a few hundred characters, each referenced once", () => {
      const names = Array.from({ length: 2_000 }, (_, i) => `field${i}`);
      const definition = (name: string) => ({
        type: "string",
        description: `The ${name} of the record, as the upstream service names it. `.repeat(3),
      });
      const schema: JSONSchemaObject = {
        type: "object",
        properties: Object.fromEntries(names.map((name) => [name, { $ref: `#/$defs/${name}` }])),
        $defs: Object.fromEntries(names.map((name) => [name, definition(name)])),
      };
      const inlined = inline(schema);
      expect(inlined.properties).toEqual(Object.fromEntries(names.map((name) => [name, definition(name)])));
      expect(JSON.stringify(inlined).length).toBeGreaterThan(400_000);
    });
  });
});
