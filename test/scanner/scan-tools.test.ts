import "reflect-metadata";
import { IsString } from "class-validator";
import { Args, Param, ScanError, Tool, Toolkit, scanTools } from "../../src";
import { scanErrorOf } from "../support/scan-error";

const UNKNOWN_TYPE_FIX =
  "Say what it is with @Param({ type: TheClass }) / @Param({ type: [String] }) / @Param({ enum: [...] }) / @Param({ schema: {...} }), or run `toolnexus generate` so the manifest supplies it.";

describe("scanTools: what it finds", () => {
  it("returns one tool per @Tool method and ignores other methods", () => {
    class Service {
      @Tool("A")
      alpha() {
        return "a";
      }
      helper() {
        return "h";
      }
      @Tool("B")
      beta() {
        return "b";
      }
    }
    expect(scanTools(new Service()).map((tool) => tool.name)).toEqual(["alpha", "beta"]);
  });

  it("a class with no @Tool methods is a ScanError", () => {
    class Plain {
      run() {
        return "";
      }
    }
    expect(scanErrorOf(new Plain()).message).toBe(
      'Plain has no @Tool methods. Decorate the methods models may call with @Tool("what it does").',
    );
  });

  it("the Toolkit refuses a class with no @Tool methods the same way", () => {
    class Plain {}
    expect(() => new Toolkit([new Plain()])).toThrow(ScanError);
  });

  it("scanTools(null) and non-objects are ScanErrors", () => {
    expect(() => scanTools(null as unknown as object)).toThrow(
      new ScanError("scanTools takes an instance of a class with @Tool methods; got null."),
    );
    expect(() => scanTools(42 as unknown as object)).toThrow(
      new ScanError("scanTools takes an instance of a class with @Tool methods; got number."),
    );
  });

  it("two methods with one tool name is a ScanError naming both methods", () => {
    class Clash {
      @Tool({ name: "search", description: "Searches docs" })
      searchDocs(query: string) {
        return query;
      }
      @Tool({ name: "search", description: "Searches the web" })
      searchWeb(query: string) {
        return query;
      }
    }
    expect(scanErrorOf(new Clash()).message).toBe(
      'Clash.searchDocs and Clash.searchWeb both declare the tool "search"; give one of them another name with @Tool({ name }).',
    );
  });

  it("a method named like another tool's explicit name clashes too", () => {
    class Clash {
      @Tool("Lists")
      list() {
        return "";
      }
      @Tool({ name: "list", description: "Also lists" })
      listAll() {
        return "";
      }
    }
    const message = scanErrorOf(new Clash()).message;
    expect(message).toContain("Clash.list");
    expect(message).toContain("Clash.listAll");
    expect(message).toContain('"list"');
  });
});

describe("scanTools: inheritance and binding", () => {
  class BaseService {
    protected greeting = "hello";

    @Tool("Greets someone")
    greet(name: string) {
      return `base ${this.greeting} ${name}`;
    }

    @Tool("Says goodbye")
    bye(name: string) {
      return `bye ${name}`;
    }
  }

  class PoliteService extends BaseService {
    protected override greeting = "good day";

    override greet(name: string) {
      return `polite ${this.greeting} ${name}`;
    }

    @Tool("Thanks someone")
    thank(name: string) {
      return `thanks ${name}`;
    }
  }

  class RenamedService extends BaseService {
    @Tool("Greets warmly")
    override greet(name: string) {
      return `warm ${name}`;
    }
  }

  it("inherited tools are found", () => {
    const names = scanTools(new PoliteService()).map((tool) => tool.name);
    expect([...names].sort()).toEqual(["bye", "greet", "thank"]);
  });

  it("an override in the subclass wins: the subclass body runs (with the base metadata)", async () => {
    const kit = new Toolkit([new PoliteService()]);
    expect(kit.get("greet")!.description).toBe("Greets someone");
    expect(await kit.execute("greet", { name: "Ada" })).toEqual({ output: "polite good day Ada", isError: false });
    expect(await kit.execute("bye", { name: "Ada" })).toEqual({ output: "bye Ada", isError: false });
  });

  it("a re-decorated override wins with its own options", async () => {
    const tools = scanTools(new RenamedService());
    expect(tools.filter((tool) => tool.name === "greet")).toHaveLength(1);
    const greet = tools.find((tool) => tool.name === "greet")!;
    expect(greet.description).toBe("Greets warmly");
    expect(await greet.execute({ name: "Bo" })).toEqual({ output: "warm Bo", isError: false });
  });

  it("the base class alone still has its own behaviour", async () => {
    const greet = scanTools(new BaseService()).find((tool) => tool.name === "greet")!;
    expect(await greet.execute({ name: "Cy" })).toEqual({ output: "base hello Cy", isError: false });
  });

  it("two instances of one class keep their own state (tools bound to their instance)", async () => {
    class Counter {
      count = 0;
      constructor(readonly label: string) {}

      @Tool("Adds to the counter")
      add(@Param({ integer: true }) by: number) {
        this.count += by;
        return `${this.label}=${this.count}`;
      }
    }
    const a = new Counter("a");
    const b = new Counter("b");
    const [addA] = scanTools(a);
    const [addB] = scanTools(b);
    expect(await addA!.execute({ by: 2 })).toEqual({ output: "a=2", isError: false });
    expect(await addA!.execute({ by: 3 })).toEqual({ output: "a=5", isError: false });
    expect(await addB!.execute({ by: 10 })).toEqual({ output: "b=10", isError: false });
    expect(a.count).toBe(5);
    expect(b.count).toBe(10);
  });

  it("a tool detached from its object still runs on its instance", async () => {
    class Box {
      secret = "s3";
      @Tool("Reveals")
      reveal() {
        return this.secret;
      }
    }
    const { execute } = scanTools(new Box())[0]!;
    expect(await execute({})).toEqual({ output: "s3", isError: false });
  });
});

describe("scanTools: parameters whose type cannot be known", () => {
  interface Filter {
    field: string;
  }
  type Id = string | number;

  it("an interface", () => {
    class Search {
      @Tool("Searches")
      search(query: string, filter: Filter) {
        return query + filter.field;
      }
    }
    expect(scanErrorOf(new Search()).message).toBe(
      'Search.search, parameter 1 ("filter"): its type cannot be known (metadata says Object: a parameter without a type annotation, an interface, a type alias, a union, any or unknown look like this). ' +
        UNKNOWN_TYPE_FIX,
    );
  });

  it("a union (type alias)", () => {
    class Lookup {
      @Tool("Looks up")
      lookup(id: Id) {
        return String(id);
      }
    }
    const message = scanErrorOf(new Lookup()).message;
    expect(message).toContain('Lookup.lookup, parameter 0 ("id")');
    expect(message).toContain("its type cannot be known");
    expect(message).toContain("@Param({ type: TheClass })");
    expect(message).toContain("toolnexus generate");
  });

  it("any", () => {
    class Loose {
      @Tool("Loose")
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parameter type under test
      run(first: string, second: number, payload: any) {
        return first + second + String(payload);
      }
    }
    const message = scanErrorOf(new Loose()).message;
    expect(message).toContain('Loose.run, parameter 2 ("payload")');
    expect(message).toContain("its type cannot be known (metadata says Object");
    expect(message).toContain(UNKNOWN_TYPE_FIX);
  });

  it("an untyped parameter with a default value", () => {
    class Untyped {
      @Tool("Untyped")
      run(units = "metric") {
        return units;
      }
    }
    expect(scanErrorOf(new Untyped()).message).toBe(
      'Untyped.run, parameter 0 ("units"): its type cannot be known (metadata says Object: a parameter without a type annotation, an interface, a type alias, a union, any or unknown look like this). ' +
        UNKNOWN_TYPE_FIX,
    );
  });

  it("the same parameters are fine once their type is stated", () => {
    class Fixed {
      @Tool("Fixed")
      run(@Param({ type: String }) units = "metric", @Param({ enum: ["a", 1] }) id: string | number) {
        return `${units}${id}`;
      }
    }
    expect(scanTools(new Fixed())[0]!.inputSchema).toEqual({
      type: "object",
      properties: { units: { type: "string" }, id: { enum: ["a", 1] } },
      required: ["id"],
      additionalProperties: false,
    });
  });
});

describe("scanTools: missing design:paramtypes", () => {
  it("is a ScanError mentioning emitDecoratorMetadata and naming class, method and parameter", () => {
    class Stripped {
      @Tool("Weather")
      weather(city: string, days: number) {
        return `${city}${days}`;
      }
    }
    expect(Reflect.getMetadata("design:paramtypes", Stripped.prototype, "weather")).toEqual([String, Number]);
    Reflect.deleteMetadata("design:paramtypes", Stripped.prototype, "weather");
    const message = scanErrorOf(new Stripped()).message;
    expect(message).toContain('Stripped.weather, parameter 0 ("city"): no type metadata was emitted for this method.');
    expect(message).toContain('"emitDecoratorMetadata": true');
    expect(message).toContain("@Param({ type: String })");
  });

  it("the same class works when every @Param has an explicit type", async () => {
    class Explicit {
      @Tool("Weather")
      weather(
        @Param({ type: String }) city: string,
        @Param({ type: Number, integer: true }) days: number,
        @Param({ enum: ["c", "f"] }) units: string,
        @Param({ type: Date }) from: Date,
      ) {
        return `${city} ${days} ${units} ${from instanceof Date}`;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Explicit.prototype, "weather");
    expect(Reflect.getMetadata("design:paramtypes", Explicit.prototype, "weather")).toBeUndefined();
    const kit = new Toolkit([new Explicit()]);
    expect(kit.get("weather")!.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        units: { type: "string", enum: ["c", "f"] },
        from: { type: "string", format: "date-time" },
      },
      required: ["city", "days", "units", "from"],
      additionalProperties: false,
    });
    expect(await kit.execute("weather", { city: "Oslo", days: "3", units: "c", from: "2024-01-01T00:00:00Z" })).toEqual(
      {
        output: "Oslo 3 c true",
        isError: false,
      },
    );
  });

  it("one parameter without an explicit type is enough to fail", () => {
    class Partly {
      @Tool("Partly")
      run(@Param({ type: String }) a: string, b: number) {
        return a + b;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Partly.prototype, "run");
    expect(scanErrorOf(new Partly()).message).toContain('Partly.run, parameter 1 ("b"): no type metadata was emitted');
  });

  it("@Args() without metadata fails, @Args(Dto) works", async () => {
    class NoteDto {
      @IsString() text!: string;
    }
    class Implicit {
      @Tool("Notes")
      note(@Args() input: NoteDto) {
        return input.text;
      }
    }
    class Explicit {
      @Tool("Notes")
      note(@Args(NoteDto) input: NoteDto) {
        return `${input.text} ${input instanceof NoteDto}`;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Implicit.prototype, "note");
    Reflect.deleteMetadata("design:paramtypes", Explicit.prototype, "note");
    const message = scanErrorOf(new Implicit()).message;
    expect(message).toContain("Implicit.note, parameter 0: @Args needs a DTO class, but no type metadata was emitted.");
    expect(message).toContain("emitDecoratorMetadata");
    const kit = new Toolkit([new Explicit()]);
    expect(await kit.execute("note", { text: "hi" })).toEqual({ output: "hi true", isError: false });
  });
});
