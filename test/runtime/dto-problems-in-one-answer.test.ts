import "reflect-metadata";
import fc from "fast-check";
import { Type } from "class-transformer";
import {
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from "class-validator";
import { Args, Param, Tool, Toolkit } from "../../src";

/** Every value a validator was asked about, so a test can say what class-validator never saw. */
const seen: unknown[] = [];

@ValidatorConstraint({ name: "isPrime" })
class IsPrime implements ValidatorConstraintInterface {
  validate(value: unknown) {
    seen.push(value);
    if (typeof value !== "number" || !Number.isInteger(value) || value < 2) return false;
    for (let d = 2; d * d <= value; d++) if (value % d === 0) return false;
    return true;
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be a prime number`;
  }
}

@ValidatorConstraint({ name: "endsAfterStart" })
class EndsAfterStart implements ValidatorConstraintInterface {
  validate(end: unknown, args: ValidationArguments) {
    const { start } = args.object as { start?: unknown };
    return typeof start !== "number" || typeof end !== "number" || end > start;
  }
  defaultMessage() {
    return "end must come after start";
  }
}

@ValidatorConstraint({ name: "recorded" })
class Recorded implements ValidatorConstraintInterface {
  validate(value: unknown) {
    seen.push(value);
    return true;
  }
}

@ValidatorConstraint({ name: "throwsOnNonStrings" })
class ThrowsOnNonStrings implements ValidatorConstraintInterface {
  validate(value: unknown) {
    if (typeof value !== "string") throw new TypeError("expected a string");
    return value.length > 0;
  }
}

class BookingDto {
  @IsString() @MaxLength(40) @Validate(Recorded) guest!: string;
  @IsInt() @Validate(IsPrime) room!: number;
  @IsInt() start!: number;
  @IsInt() @Validate(EndsAfterStart) end!: number;
  @IsOptional() @IsEmail() email?: string;
}

@ValidatorConstraint({ name: "isUpperCase" })
class IsUpperCase implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === "string" && value !== "" && value === value.toUpperCase();
  }
  defaultMessage(args: ValidationArguments) {
    return `${args.property} must be upper case`;
  }
}

class LabelsDto {
  @IsInt() @Validate(IsPrime) first!: number;
  @IsInt() @Validate(IsPrime) second!: number;
  @IsString() @Validate(IsUpperCase) left!: string;
  @IsString() @Validate(IsUpperCase) right!: string;
}

class ItemDto {
  @IsString() sku!: string;
  @IsInt() @Validate(IsPrime) qty!: number;
}

class OrderDto {
  @IsString() customer!: string;
  @ValidateNested({ each: true }) @Type(() => ItemDto) items!: ItemDto[];
}

class ContactDto {
  @IsString() name!: string;
  @IsEmail() email!: string;
}

class NoteDto {
  @Validate(ThrowsOnNonStrings) text!: string;
  @IsInt() @Validate(IsPrime) page!: number;
}

const called: string[] = [];

class Desk {
  @Tool("Books a room")
  book(@Args() booking: BookingDto) {
    called.push("book");
    return `booked ${booking.room}`;
  }

  @Tool("Places an order")
  order(@Args() order: OrderDto) {
    called.push("order");
    return `${order.customer}: ${order.items.length}`;
  }

  @Tool("Ships items")
  ship(@Param({ type: [ItemDto] }) items: ItemDto[], @Param("priority") priority: number) {
    called.push("ship");
    return `${items.length} at ${priority}`;
  }

  @Tool("Labels")
  label(@Args() labels: LabelsDto) {
    called.push("label");
    return Object.keys(labels).sort().join(",");
  }

  @Tool("Adds a contact")
  contact(
    @Param("contact", {
      // A schema of the developer's own, saying nothing about emails: only class-validator knows.
      schema: {
        type: "object",
        properties: { name: { type: "string" }, email: { type: "string" } },
        required: ["name", "email"],
      },
    })
    contact: ContactDto,
  ) {
    called.push("contact");
    return contact.email;
  }

  @Tool("Takes a note")
  note(@Args() note: NoteDto) {
    called.push("note");
    return note.text;
  }
}

const kit = new Toolkit([new Desk()]);
const valid = { guest: "Ada", room: 7, start: 1, end: 2 };

beforeEach(() => {
  called.length = 0;
  seen.length = 0;
});

describe("a call whose arguments break both the schema and class-validator rules", () => {
  it("gets every problem in one invalid_arguments result: the schema's, then class-validator's", async () => {
    const result = await kit.execute("book", { guest: 5, room: 8, start: 10, end: 3 });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "book":',
        '- "guest" must be string, got number 5',
        '- "room": room must be a prime number, got number 8',
        '- "end": end must come after start, got number 3',
      ].join("\n"),
    );
    expect(called).toEqual([]);
  });

  it("says a problem both checks find at the same argument once, in the schema's words", async () => {
    const result = await kit.execute("book", { ...valid, room: "eight", email: "nobody" });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "book":',
        '- "room" must be integer, got string "eight"',
        '- "email" must match format "email", got string "nobody"',
      ].join("\n"),
    );
  });

  it("includes what only class-validator knows, such as @IsEmail under a schema without the format", async () => {
    const result = await kit.execute("contact", { contact: { name: 7, email: "nobody" } });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "contact":',
        '- "contact.name" must be string, got number 7',
        '- "contact.email": email must be an email, got string "nobody"',
      ].join("\n"),
    );
  });

  it("finds class-validator's problems inside lists of DTOs, at the elements' own positions", async () => {
    const result = await kit.execute("order", {
      customer: "Ada",
      items: [
        { sku: "a", qty: 4 },
        { sku: 5, qty: 9 },
        { sku: "c", qty: 3 },
      ],
    });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "order":',
        '- "items[1].sku" must be string, got number 5',
        '- "items[0].qty": qty must be a prime number, got number 4',
        '- "items[1].qty": qty must be a prime number, got number 9',
      ].join("\n"),
    );
  });

  it("checks @Param DTO lists too, skipping elements that are not objects (the schema reported them)", async () => {
    const result = await kit.execute("ship", { items: [{ sku: "a", qty: 6 }, "oops"], priority: "high" });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "ship":',
        '- "items[1]" must be object, got string "oops"',
        '- "priority" must be number, got string "high"',
        '- "items[0].qty": qty must be a prime number, got number 6',
      ].join("\n"),
    );
  });

  it("keeps the bounded output: the first problems, then how many more", async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ sku: `s${i}`, qty: 4 }));
    const result = await kit.execute("order", { customer: 1, items });
    const lines = result.output.split("\n");
    expect(lines[1]).toBe('- "customer" must be string, got number 1');
    expect(lines.at(-1)).toMatch(/^\.\.\. and \d+ more problems$/);
    const listed = lines.slice(1, -1).length;
    expect(Number(/and (\d+) more/.exec(lines.at(-1)!)![1])).toBe(31 - listed);
  });

  it("is still answered from the schema alone when a validator throws on a value the schema refused", async () => {
    const result = await kit.execute("note", { text: 42, page: 4 });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.output).toBe('Invalid arguments for tool "note": "text" must be string, got number 42');
  });
});

describe("class-validator, run on a call the schema refused, never reads", () => {
  it("a string longer than the schema allows", async () => {
    const result = await kit.execute("book", { ...valid, guest: "x".repeat(100_000), room: 4 });
    expect(result.output).toContain('"guest" must NOT have more than 40 characters');
    expect(result.output).toContain('"room": room must be a prime number, got number 4');
    expect(seen).not.toContainEqual("x".repeat(100_000));
    expect(seen).toContain(4);
  });

  it("an object or list where a scalar was expected, however deep", async () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = await kit.execute("book", { ...valid, guest: deep, room: 4 });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "book":',
        '- "guest" must be string, got an array of 1',
        '- "room": room must be a prime number, got number 4',
      ].join("\n"),
    );
    expect(seen).not.toContain(deep);
  });

  it("a key the schema does not know, however deep its value", async () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    const result = await kit.execute("book", { ...valid, extra: deep, room: 4 });
    expect(result.output).toContain('- unknown argument "extra"');
    expect(result.output).toContain('- "room": room must be a prime number, got number 4');
  });
});

describe("a call the schema accepts", () => {
  it("is still checked by class-validator alone, then run", async () => {
    expect((await kit.execute("book", { ...valid, room: 9 })).output).toBe(
      'Invalid arguments for tool "book": "room": room must be a prime number, got number 9',
    );
    expect(await kit.execute("book", valid)).toEqual({ output: "booked 7", isError: false });
    expect(called).toEqual(["book"]);
  });
});

describe("for any mix of right, mistyped, rule-breaking and missing arguments", () => {
  type Kind = "right" | "mistyped" | "breaks a rule" | "missing";
  const kinds = fc.constantFrom<Kind>("right", "mistyped", "breaks a rule", "missing");
  const mistyped = (wanted: "integer" | "string") =>
    fc.constantFrom<unknown>(
      ...(wanted === "integer" ? ["x", true, 2.5, {}, [3], { a: [1] }] : [5, false, null, [], ["A"], { a: "B" }]),
    );
  const value = (kind: Kind, wanted: "integer" | "string") =>
    kind === "right"
      ? fc.constant<unknown>(wanted === "integer" ? 7 : "AB")
      : kind === "breaks a rule"
        ? fc.constant<unknown>(wanted === "integer" ? 4 : "ab")
        : mistyped(wanted);
  const FIELDS = { first: "integer", second: "integer", left: "string", right: "string" } as const;
  const calls = fc.record({ first: kinds, second: kinds, left: kinds, right: kinds }).chain((plan) =>
    fc
      .tuple(
        ...(Object.entries(plan) as Array<[keyof typeof FIELDS, Kind]>).map(([field, kind]) =>
          value(kind, FIELDS[field]).map((v) => [field, kind, v] as const),
        ),
      )
      .map((entries) => ({
        plan,
        args: Object.fromEntries(entries.filter(([, kind]) => kind !== "missing").map(([field, , v]) => [field, v])),
      })),
  );

  it("lists each wrong argument exactly once, and runs the tool only when none is wrong", async () => {
    await fc.assert(
      fc.asyncProperty(calls, async ({ plan, args }) => {
        called.length = 0;
        const result = await kit.execute("label", args);
        const wrong = Object.keys(plan)
          .filter((field) => plan[field as keyof typeof plan] !== "right")
          .sort();
        if (wrong.length === 0) {
          expect(result).toEqual({ output: "first,left,right,second", isError: false });
          return;
        }
        expect(result.metadata?.error).toBe("invalid_arguments");
        const problems =
          wrong.length === 1
            ? [result.output.slice(result.output.indexOf(":") + 2)]
            : result.output.split("\n").slice(1);
        const about = problems.map((problem) => /"([^"]+)"/.exec(problem)![1]);
        expect([...about].sort()).toEqual(wrong);
        expect(called).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
