import "reflect-metadata";
import { Type } from "class-transformer";
import {
  ArrayMinSize,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from "class-validator";
import { Args, Param, ScanError, Tool, Toolkit, scanTools, type Constructor, type JSONSchemaObject } from "../../src";
import { compileValidator } from "../../src/runtime/validation";
import { discriminatedUnionsForValidation } from "../../src/schema/discriminated-unions";

@ValidatorConstraint({ name: "isWhole" })
class IsWholeConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return Number.isInteger(value);
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be a whole number`;
  }
}

/** The discriminator is not declared: with keepDiscriminatorProperty false it is not kept. */
abstract class Shape {
  area(): number {
    return 0;
  }
}
class Circle extends Shape {
  // Whole radii only: a constraint the JSON Schema cannot carry, so only class-validator on a Circle enforces it.
  @IsNumber() @Min(0) @Validate(IsWholeConstraint) radius!: number;
  override area() {
    return 3 * this.radius * this.radius;
  }
}
class Square extends Shape {
  @IsNumber() side!: number;
  override area() {
    return this.side * this.side;
  }
}
/** Nothing but its discriminator. */
class Dot extends Shape {}

const shapeTypes = [
  { value: Circle, name: "circle" },
  { value: Square, name: "square" },
];

class Drawing {
  @ValidateNested()
  @Type(() => Shape, { discriminator: { property: "kind", subTypes: shapeTypes }, keepDiscriminatorProperty: false })
  main!: Shape;
  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @Type(() => Shape, { discriminator: { property: "kind", subTypes: shapeTypes }, keepDiscriminatorProperty: false })
  extras!: Shape[];
}

const circleSchema: JSONSchemaObject = {
  type: "object",
  properties: { kind: { type: "string", enum: ["circle"] }, radius: { type: "number", minimum: 0 } },
  required: ["kind", "radius"],
  additionalProperties: false,
};
const squareSchema: JSONSchemaObject = {
  type: "object",
  properties: { kind: { type: "string", enum: ["square"] }, side: { type: "number" } },
  required: ["kind", "side"],
  additionalProperties: false,
};
const shapeUnion: JSONSchemaObject = { anyOf: [circleSchema, squareSchema] };

function drawingKit() {
  const received: Drawing[] = [];
  class Painter {
    @Tool("Draws shapes")
    draw(@Args() drawing: Drawing) {
      received.push(drawing);
      return [drawing.main, ...drawing.extras].map((shape) => `${shape.constructor.name}:${shape.area()}`).join(" ");
    }
  }
  return { kit: new Toolkit([new Painter()]), received };
}

describe("discriminated DTO properties: the schema", () => {
  it("a single value and an array become anyOf of the subtypes, each with its discriminator required and fixed", () => {
    const { kit } = drawingKit();
    const expected: JSONSchemaObject = {
      type: "object",
      properties: { main: shapeUnion, extras: { type: "array", items: shapeUnion, minItems: 1 } },
      required: ["main", "extras"],
      additionalProperties: false,
    };
    const schema = kit.get("draw")!.inputSchema;
    expect(schema).toEqual(expected);
    expect(JSON.stringify(schema)).toBe(JSON.stringify(expected));
  });

  it("keepDiscriminatorProperty: true gives the same schema, the discriminator declared on the base class or not", () => {
    abstract class Pet {
      @IsIn(["cat", "dog"]) species!: string;
    }
    class Cat extends Pet {
      @IsNumber() lives!: number;
    }
    class Dog extends Pet {
      @IsString() breed!: string;
    }
    class Home {
      @ValidateNested()
      @Type(() => Pet, {
        discriminator: {
          property: "species",
          subTypes: [
            { value: Cat, name: "cat" },
            { value: Dog, name: "dog" },
          ],
        },
        keepDiscriminatorProperty: true,
      })
      pet!: Pet;
    }
    class Homes {
      @Tool("Houses a pet")
      house(@Args() home: Home) {
        return home.pet.species;
      }
    }
    expect(scanTools(new Homes())[0]!.inputSchema.properties!.pet).toEqual({
      anyOf: [
        {
          type: "object",
          properties: { species: { type: "string", enum: ["cat"] }, lives: { type: "number" } },
          required: ["species", "lives"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { species: { type: "string", enum: ["dog"] }, breed: { type: "string" } },
          required: ["species", "breed"],
          additionalProperties: false,
        },
      ],
    });
  });

  it("a subtype with nothing but its discriminator is an object of that one property", () => {
    class Canvas {
      @ValidateNested()
      @Type(() => Shape, {
        discriminator: { property: "kind", subTypes: [...shapeTypes, { value: Dot, name: "dot" }] },
      })
      shape!: Shape;
    }
    class Painter {
      @Tool("Paints")
      paint(@Args() canvas: Canvas) {
        return canvas.shape.constructor.name;
      }
    }
    const union = scanTools(new Painter())[0]!.inputSchema.properties!.shape!;
    expect((union.anyOf as JSONSchemaObject[])[2]).toEqual({
      type: "object",
      properties: { kind: { type: "string", enum: ["dot"] } },
      required: ["kind"],
      additionalProperties: false,
    });
  });

  it("the declared union exports to every provider", () => {
    const { kit } = drawingKit();
    expect(() => kit.toOpenAI()).not.toThrow();
    expect(() => kit.toGemini()).not.toThrow();
    expect(() => kit.toAnthropic()).not.toThrow();
    expect(JSON.stringify(kit.toOpenAI())).toContain('"enum":["circle"]');
  });
});

describe("discriminated DTO properties: the call", () => {
  it("each value becomes an instance of its subtype, with the subtype's methods", async () => {
    const { kit, received } = drawingKit();
    const args = {
      main: { kind: "circle", radius: 2 },
      extras: [
        { kind: "square", side: 3 },
        { kind: "circle", radius: 1 },
      ],
    };
    expect(await kit.execute("draw", args)).toEqual({ output: "Circle:12 Square:9 Circle:3", isError: false });
    const [drawing] = received;
    expect(drawing!.main).toBeInstanceOf(Circle);
    expect(drawing!.extras.map((shape) => shape.constructor)).toEqual([Square, Circle]);
    // keepDiscriminatorProperty: false, as class-transformer does it.
    expect(drawing!.main).not.toHaveProperty("kind");
  });

  it("never changes the caller's arguments, so the same object can be sent again", async () => {
    const { kit, received } = drawingKit();
    const args = { main: { kind: "circle", radius: 2 }, extras: [{ kind: "square", side: 3 }] };
    const before = structuredClone(args);
    expect((await kit.execute("draw", args)).isError).toBe(false);
    expect(args).toEqual(before);
    expect((await kit.execute("draw", args)).isError).toBe(false);
    expect(args).toEqual(before);
    expect(received.map((drawing) => drawing.main.constructor)).toEqual([Circle, Circle]);
  });

  it("a subtype's own class-validator constraints apply to that subtype only", async () => {
    const { kit, received } = drawingKit();
    const result = await kit.execute("draw", {
      main: { kind: "square", side: 2.5 },
      extras: [{ kind: "circle", radius: 1.5 }],
    });
    expect(result).toEqual({
      output: 'Invalid arguments for tool "draw": "extras[0].radius": radius must be a whole number, got number 1.5',
      isError: true,
      metadata: { tool: "draw", error: "invalid_arguments" },
    });
    expect(received).toHaveLength(0);
    expect(
      (await kit.execute("draw", { main: { kind: "square", side: 2.5 }, extras: [{ kind: "circle", radius: 1 }] }))
        .isError,
    ).toBe(false);
  });

  it("a discriminator value that is no subtype's is refused, naming the allowed values", async () => {
    const { kit, received } = drawingKit();
    expect(
      (await kit.execute("draw", { main: { kind: "triangle", radius: 1 }, extras: [{ kind: "circle", radius: 1 }] }))
        .output,
    ).toBe('Invalid arguments for tool "draw": "main.kind" must be one of "circle", "square", got string "triangle"');
    expect(
      (await kit.execute("draw", { main: { kind: "circle", radius: 1 }, extras: [{ kind: "Circle", radius: 1 }] }))
        .output,
    ).toBe(
      'Invalid arguments for tool "draw": "extras[0].kind" must be one of "circle", "square", got string "Circle"',
    );
    expect((await kit.execute("draw", { main: { radius: 1 }, extras: [{ kind: "circle", radius: 1 }] })).output).toBe(
      'Invalid arguments for tool "draw": missing required argument "main.kind" (expected one of "circle", "square")',
    );
    expect(received).toHaveLength(0);
  });

  it("a value that breaks its own subtype's schema names what is wrong with it, not the other subtypes' complaints", async () => {
    const { kit } = drawingKit();
    const result = await kit.execute("draw", {
      main: { kind: "circle", radius: -1, side: 2 },
      extras: [{ kind: "square", side: 1 }],
    });
    expect(result.metadata).toEqual({ tool: "draw", error: "invalid_arguments" });
    expect(result.output).toContain('"main.radius" must be >= 0, got number -1');
    expect(result.output).toContain('unknown argument "main.side"; expected only: kind, radius');
    expect(result.output).not.toContain("square");
    const missing = await kit.execute("draw", { main: { kind: "circle" }, extras: [{ kind: "square", side: 1 }] });
    expect(missing.output).toContain('missing required argument "main.radius"');
    expect(missing.output).not.toContain("side");
  });

  it("accepts exactly what the declared schema accepts", async () => {
    const { kit } = drawingKit();
    const declared = compileValidator(kit.get("draw")!.inputSchema);
    const payloads: unknown[] = [
      { main: { kind: "circle", radius: 1 }, extras: [{ kind: "square", side: 1 }] },
      {
        main: { kind: "square", side: 1 },
        extras: [
          { kind: "square", side: 1 },
          { kind: "circle", radius: 0 },
        ],
      },
      { main: { kind: "circle", side: 1 }, extras: [{ kind: "square", side: 1 }] },
      { main: { kind: "square", radius: 1 }, extras: [{ kind: "square", side: 1 }] },
      { main: { kind: "square", side: 1, radius: 1 }, extras: [{ kind: "square", side: 1 }] },
      { main: { kind: "dot" }, extras: [{ kind: "square", side: 1 }] },
      { main: { kind: 1, side: 1 }, extras: [{ kind: "square", side: 1 }] },
      { main: { side: 1 }, extras: [{ kind: "square", side: 1 }] },
      { main: "circle", extras: [{ kind: "square", side: 1 }] },
      { main: null, extras: [{ kind: "square", side: 1 }] },
      { main: [], extras: [{ kind: "square", side: 1 }] },
      { main: { kind: "circle", radius: 1 }, extras: [] },
      { main: { kind: "circle", radius: 1 }, extras: [{}] },
      { main: { kind: "circle", radius: 1 }, extras: [{ kind: "circle", radius: -1 }] },
      { main: { kind: "circle", radius: 1 }, extras: [{ kind: "square", side: "wide" }] },
    ];
    for (const args of payloads) {
      const result = await kit.execute("draw", args);
      expect({ args, accepted: result.metadata?.error !== "invalid_arguments" }).toEqual({
        args,
        accepted: declared(args as Record<string, unknown>).length === 0,
      });
    }
  });

  it('inside a subtype, "42" is read as a number and null for an optional property as absent, as elsewhere', async () => {
    class Note {
      @IsOptional() @IsString() text?: string;
    }
    class Sticky extends Note {
      @IsNumber() @Min(1) size!: number;
    }
    class Board {
      @ValidateNested({ each: true })
      @Type(() => Note, { discriminator: { property: "kind", subTypes: [{ value: Sticky, name: "sticky" }] } })
      notes!: Note[];
    }
    const received: Board[] = [];
    class Pinboard {
      @Tool("Pins notes")
      pin(@Args() board: Board) {
        received.push(board);
        return "pinned";
      }
    }
    const kit = new Toolkit([new Pinboard()]);
    const args = { notes: [{ kind: "sticky", size: "42", text: null }] };
    expect(await kit.execute("pin", args)).toEqual({ output: "pinned", isError: false });
    expect(received[0]!.notes[0]).toBeInstanceOf(Sticky);
    expect({ ...received[0]!.notes[0] }).toEqual({ size: 42 });
    expect(args).toEqual({ notes: [{ kind: "sticky", size: "42", text: null }] });
    expect((await kit.execute("pin", { notes: [{ kind: "sticky", size: "0" }] })).output).toBe(
      'Invalid arguments for tool "pin": "notes[0].size" must be >= 1, got number 0',
    );
  });

  it("works at any depth: inside a nested DTO, and inside a subtype", async () => {
    class Frame extends Shape {
      @IsNumber() margin!: number;
      @ValidateNested() @Type(() => Shape, { discriminator: { property: "kind", subTypes: shapeTypes } }) inner!: Shape;
    }
    class Layer {
      @IsString() name!: string;
      @ValidateNested({ each: true })
      @Type(() => Shape, {
        discriminator: { property: "kind", subTypes: [...shapeTypes, { value: Frame, name: "frame" }] },
        keepDiscriminatorProperty: true,
      })
      shapes!: Shape[];
    }
    class Scene {
      @ValidateNested() @Type(() => Layer) layer!: Layer;
    }
    const received: Scene[] = [];
    class Stage {
      @Tool("Shows a scene")
      show(@Args() scene: Scene) {
        received.push(scene);
        return "shown";
      }
    }
    const kit = new Toolkit([new Stage()]);
    const shapes = kit.get("show")!.inputSchema.properties!.layer!.properties!.shapes!.items as JSONSchemaObject;
    const frameSchema = (shapes.anyOf as JSONSchemaObject[])[2];
    expect(frameSchema).toEqual({
      type: "object",
      properties: { kind: { type: "string", enum: ["frame"] }, margin: { type: "number" }, inner: shapeUnion },
      required: ["kind", "margin", "inner"],
      additionalProperties: false,
    });

    const args = {
      layer: {
        name: "top",
        shapes: [
          { kind: "frame", margin: 1, inner: { kind: "circle", radius: 4 } },
          { kind: "square", side: 1 },
        ],
      },
    };
    const before = structuredClone(args);
    expect(await kit.execute("show", args)).toEqual({ output: "shown", isError: false });
    expect(args).toEqual(before);
    const [frame, square] = received[0]!.layer.shapes as [Frame, Square];
    expect(frame).toBeInstanceOf(Frame);
    expect(frame.inner).toBeInstanceOf(Circle);
    expect(square).toBeInstanceOf(Square);
    expect(square).toHaveProperty("kind", "square");

    const bad = await kit.execute("show", {
      layer: { name: "top", shapes: [{ kind: "frame", margin: 1, inner: { kind: "circle", radius: 4.5 } }] },
    });
    expect(bad.output).toBe(
      'Invalid arguments for tool "show": "layer.shapes[0].inner.radius": radius must be a whole number, got number 4.5',
    );
    const unknown = await kit.execute("show", {
      layer: { name: "top", shapes: [{ kind: "frame", margin: 1, inner: { kind: "frame" } }] },
    });
    expect(unknown.output).toBe(
      'Invalid arguments for tool "show": "layer.shapes[0].inner.kind" must be one of "circle", "square", got string "frame"',
    );
  });

  it("a subtype with nothing but its discriminator arrives as an instance and passes class-validator", async () => {
    class Canvas {
      @ValidateNested()
      @Type(() => Shape, {
        discriminator: { property: "kind", subTypes: [...shapeTypes, { value: Dot, name: "dot" }] },
      })
      shape!: Shape;
    }
    class Painter {
      @Tool("Paints")
      paint(@Args() canvas: Canvas) {
        return canvas.shape.constructor.name;
      }
    }
    const kit = new Toolkit([new Painter()]);
    expect(await kit.execute("paint", { shape: { kind: "dot" } })).toEqual({ output: "Dot", isError: false });
    expect((await kit.execute("paint", { shape: { kind: "dot", radius: 1 } })).output).toContain(
      'unknown argument "shape.radius"; expected only: kind',
    );
  });

  it("DTOs given as @Param, alone or as an array, are read from a copy too", async () => {
    const received: unknown[] = [];
    class Painter {
      @Tool("Draws one")
      one(@Param() drawing: Drawing) {
        received.push(drawing);
        return drawing.main.constructor.name;
      }
      @Tool("Draws many")
      many(@Param({ type: [Drawing] }) drawings: Drawing[]) {
        received.push(drawings);
        return drawings.map((drawing) => drawing.extras[0]!.constructor.name).join(",");
      }
    }
    const kit = new Toolkit([new Painter()]);
    const drawing = { main: { kind: "square", side: 1 }, extras: [{ kind: "circle", radius: 1 }] };
    const one = { drawing };
    const many = {
      drawings: [drawing, { main: { kind: "circle", radius: 1 }, extras: [{ kind: "square", side: 1 }] }],
    };
    const before = structuredClone({ one, many });
    expect(await kit.execute("one", one)).toEqual({ output: "Square", isError: false });
    expect(await kit.execute("many", many)).toEqual({ output: "Circle,Square", isError: false });
    expect({ one, many }).toEqual(before);
  });
});

describe("discriminated DTO properties: provider round trips", () => {
  it("OpenAI: arguments as a JSON string", async () => {
    const { kit, received } = drawingKit();
    const messages = await kit.runOpenAI([
      {
        id: "call_1",
        type: "function",
        function: {
          name: "draw",
          arguments: JSON.stringify({ main: { kind: "square", side: 2 }, extras: [{ kind: "circle", radius: 1 }] }),
        },
      },
      {
        id: "call_2",
        type: "function",
        function: {
          name: "draw",
          arguments: JSON.stringify({ main: { kind: "hexagon" }, extras: [{ kind: "circle", radius: 1 }] }),
        },
      },
    ]);
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "Square:4 Circle:3" },
      {
        role: "tool",
        tool_call_id: "call_2",
        content:
          'Error: Invalid arguments for tool "draw": "main.kind" must be one of "circle", "square", got string "hexagon"',
      },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]!.main).toBeInstanceOf(Square);
    expect(received[0]!.extras[0]).toBeInstanceOf(Circle);
  });

  it("Anthropic: the input object is left exactly as it came", async () => {
    const { kit, received } = drawingKit();
    const input = {
      main: { kind: "circle", radius: 2 },
      extras: [
        { kind: "square", side: 1 },
        { kind: "circle", radius: 3 },
      ],
    };
    const message = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "draw", input }] };
    const before = structuredClone(message);
    const reply = await kit.runAnthropic(message);
    expect(reply).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "Circle:12 Square:1 Circle:27" }],
    });
    expect(message).toEqual(before);
    expect(received[0]!.extras.map((shape) => shape.constructor)).toEqual([Square, Circle]);
  });
});

describe("discriminated DTO properties: definitions that cannot work are refused at scan", () => {
  function scanError(dto: Constructor): string {
    class Service {
      @Tool("Runs")
      run(@Args(dto) input: object) {
        return input;
      }
    }
    try {
      scanTools(new Service());
    } catch (error) {
      expect(error).toBeInstanceOf(ScanError);
      return (error as Error).message;
    }
    throw new Error("expected a ScanError");
  }

  it("a discriminator class-transformer removes before validation, but that the subtypes validate", () => {
    abstract class Pet {
      @IsString() species!: string;
    }
    class Cat extends Pet {
      @IsNumber() lives!: number;
    }
    class Home {
      @ValidateNested()
      @Type(() => Pet, {
        discriminator: { property: "species", subTypes: [{ value: Cat, name: "cat" }] },
        keepDiscriminatorProperty: false,
      })
      pet!: Pet;
    }
    expect(scanError(Home)).toBe(
      'Service.run, parameter 0: Home.pet: class-transformer removes "species" from each value before validation (keepDiscriminatorProperty is false), but Cat.species has validators that require it, so every call would fail. Set keepDiscriminatorProperty: true, or make Cat.species @IsOptional().',
    );
  });

  it("an optional discriminator on the base class is fine without keepDiscriminatorProperty", () => {
    abstract class Pet {
      @IsOptional() @IsString() species?: string;
    }
    class Cat extends Pet {
      @IsNumber() lives!: number;
    }
    class Home {
      @ValidateNested()
      @Type(() => Pet, { discriminator: { property: "species", subTypes: [{ value: Cat, name: "cat" }] } })
      pet!: Pet;
    }
    expect(() => scanError(Home)).toThrow("expected a ScanError");
  });

  it("no subtypes, or two with one name", () => {
    class Empty {
      @ValidateNested() @Type(() => Shape, { discriminator: { property: "kind", subTypes: [] } }) shape!: Shape;
    }
    expect(scanError(Empty)).toBe(
      'Service.run, parameter 0: Empty.shape: @Type\'s discriminator lists no subTypes; list each subtype as { value: TheClass, name: "its-kind" }.',
    );
    class Twice {
      @ValidateNested()
      @Type(() => Shape, {
        discriminator: {
          property: "kind",
          subTypes: [
            { value: Circle, name: "round" },
            { value: Square, name: "round" },
          ],
        },
      })
      shape!: Shape;
    }
    expect(scanError(Twice)).toBe(
      'Service.run, parameter 0: Twice.shape: @Type\'s discriminator names two subTypes "round" (Circle and Square); give each a name of its own.',
    );
  });
});

describe("discriminatedUnionsForValidation: only unions it keeps equivalent are rewritten", () => {
  const branch = (kind: string, extra: Record<string, JSONSchemaObject> = {}): JSONSchemaObject => ({
    type: "object",
    properties: { kind: { type: "string", enum: [kind] }, ...extra },
    required: ["kind"],
    additionalProperties: false,
  });

  it("lists on the object the properties its branches declare alike", () => {
    const a = branch("a", { size: { type: "number" }, label: { type: "string" } });
    const b = branch("b", { size: { type: "number" }, label: { type: "number" }, extra: { type: "boolean" } });
    const schema: JSONSchemaObject = { type: "object", properties: { value: { anyOf: [a, b] } } };
    const value = discriminatedUnionsForValidation(schema).properties!.value!;
    expect(value.properties).toEqual({
      kind: { type: "string", enum: ["a", "b"] },
      size: { type: "number" },
      extra: { type: "boolean" },
    });
    // Checked there once: the branches keep the names only.
    expect((value.allOf as Array<{ then: JSONSchemaObject }>).map((each) => each.then.properties)).toEqual([
      { kind: { type: "string", enum: ["a"] }, size: {}, label: { type: "string" } },
      { kind: { type: "string", enum: ["b"] }, size: {}, label: { type: "number" }, extra: {} },
    ]);
  });

  it("rewrites a discriminated union wherever it stands, keeping its annotations", () => {
    const schema: JSONSchemaObject = {
      type: "object",
      properties: {
        one: { description: "A shape", anyOf: [branch("a"), branch("b")] },
        many: { type: "array", items: { anyOf: [branch("c")] } },
      },
    };
    const checked = discriminatedUnionsForValidation(schema);
    expect(checked.properties!.one).toEqual({
      description: "A shape",
      type: "object",
      properties: { kind: { type: "string", enum: ["a", "b"] } },
      required: ["kind"],
      allOf: [
        { if: { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] }, then: branch("a") },
        { if: { type: "object", properties: { kind: { const: "b" } }, required: ["kind"] }, then: branch("b") },
      ],
    });
    expect((checked.properties!.many!.items as JSONSchemaObject).required).toEqual(["kind"]);
    expect(schema.properties!.one!.anyOf).toHaveLength(2);
  });

  it.each<[string, JSONSchemaObject]>([
    ["branches of other types", { anyOf: [{ type: "string" }, { type: "number" }] }],
    ["two branches with one value", { anyOf: [branch("a"), branch("a")] }],
    ["a discriminator not required", { anyOf: [branch("a"), { ...branch("b"), required: [] }] }],
    [
      "a discriminator of several values",
      { anyOf: [branch("a"), { ...branch("b"), properties: { kind: { type: "string", enum: ["b", "c"] } } }] },
    ],
    [
      "a discriminator with more constraints",
      { anyOf: [branch("a"), { ...branch("b"), properties: { kind: { type: "string", enum: ["b"], minLength: 2 } } }] },
    ],
    ["a union with a type of its own", { type: "object", anyOf: [branch("a"), branch("b")] }],
    ["branches open to other keys", { anyOf: [branch("a"), { ...branch("b"), additionalProperties: true }] }],
  ])("leaves alone %s", (_case, union) => {
    const schema: JSONSchemaObject = { type: "object", properties: { value: union } };
    expect(discriminatedUnionsForValidation(schema)).toBe(schema);
  });
});
