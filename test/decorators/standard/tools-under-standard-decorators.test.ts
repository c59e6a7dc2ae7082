// Compiled with standard (TC39) decorators: no experimentalDecorators, no emitDecoratorMetadata (see tsconfig.json here).
import { z } from "zod";
import { Param, Tool, Toolkit, scanTools, toGemini, type ToolContext } from "../../../src";
import { definingFileOf } from "../../../src/decorators/defining-file";
import type { ManifestParameter, ToolnexusManifest } from "../../../src/manifest";
import { scanErrorOf, scanErrorThrownBy } from "../../support/scan-error";

describe("@Tool under standard decorators", () => {
  it("is compiled as a standard decorator here (no parameter types are emitted)", () => {
    class Probe {
      @Tool("Probes")
      probe() {
        return "ok";
      }
    }
    expect(Reflect.getMetadata?.("design:paramtypes", Probe.prototype, "probe")).toBeUndefined();
    expect(Object.getOwnPropertySymbols(Probe)).toContain(Symbol.for("Symbol.metadata"));
  });

  describe("input: a Standard Schema", () => {
    class Weather {
      readonly units = "celsius";

      @Tool({
        name: "get_weather",
        description: "Current weather for a city",
        input: z.object({ city: z.string().describe("City name"), days: z.number().int().min(1).default(1) }),
      })
      weather({ city, days }: { city: string; days: number }, ctx: ToolContext) {
        return `${days} day(s) of sun in ${city}, in ${this.units} (call ${ctx.callId})`;
      }
    }

    it("gives the tool its schema, and the method its checked output and the ctx, on its instance", async () => {
      const [tool] = scanTools(new Weather());
      expect(tool).toMatchObject({
        name: "get_weather",
        description: "Current weather for a city",
        source: "decorator",
      });
      expect(tool!.inputSchema).toMatchObject({
        type: "object",
        properties: { city: { type: "string", description: "City name" } },
        required: ["city"],
      });
      const kit = new Toolkit([new Weather()]);
      expect(await kit.execute("get_weather", { city: "Oslo" }, { callId: "c1" })).toEqual({
        output: "1 day(s) of sun in Oslo, in celsius (call c1)",
        isError: false,
      });
    });

    it("refuses arguments the schema refuses, as data", async () => {
      const result = await new Toolkit([new Weather()]).execute("get_weather", { city: "Oslo", days: 0 });
      expect(result.isError).toBe(true);
      expect(result.metadata?.error).toBe("invalid_arguments");
      expect(result.output).toContain("days");
    });

    it("declares the tool to every provider like any other (Gemini here)", () => {
      const [declaration] = toGemini(new Toolkit([new Weather()]).tools());
      expect(declaration!.functionDeclarations!.map((d) => d.name)).toEqual(["get_weather"]);
    });
  });

  it("input: a JSON Schema checks each call and the method gets the arguments", async () => {
    class Notes {
      @Tool({
        description: "Adds a note",
        input: {
          type: "object",
          properties: { text: { type: "string", minLength: 1 } },
          required: ["text"],
          additionalProperties: false,
        },
      })
      addNote(args: { text: string }) {
        return `noted: ${args.text}`;
      }
    }
    const kit = new Toolkit([new Notes()]);
    expect(await kit.execute("addNote", { text: "milk" })).toEqual({ output: "noted: milk", isError: false });
    expect((await kit.execute("addNote", { text: "" })).metadata?.error).toBe("invalid_arguments");
  });

  it("a method without parameters needs no input", async () => {
    class Clock {
      @Tool("The time")
      now() {
        return "noon";
      }
    }
    expect(await new Toolkit([new Clock()]).execute("now", {})).toEqual({ output: "noon", isError: false });
  });

  it("a method with parameters and neither input nor a manifest fails the scan, naming the mode and the ways forward", () => {
    class Weather {
      @Tool("Current weather")
      weather(city: string) {
        return city;
      }
    }
    const { message } = scanErrorThrownBy(() => scanTools(new Weather(), { manifest: false }));
    expect(message).toMatch(/^Weather\.weather: this class is compiled with standard \(TC39\) decorators/);
    expect(message).toContain("@Tool({ input })");
    expect(message).toContain("npx toolnexus generate");
    expect(message).toContain('"experimentalDecorators": true and "emitDecoratorMetadata": true');
  });

  it("the generated manifest describes the parameters, the ctx among them", async () => {
    class Weather {
      @Tool("Current weather")
      weather(city: string, ctx: ToolContext) {
        return `sun in ${city} for ${String(ctx.state?.user)}`;
      }
    }
    const parameters: ManifestParameter[] = [
      { kind: "param", name: "city", optional: false, schema: { type: "string", minLength: 1 } },
      { kind: "ctx" },
    ];
    const manifest: ToolnexusManifest = {
      manifestVersion: 1,
      hash: "sha256:00000000000000000000000000000000",
      tools: {
        "Weather.weather": { file: "src/weather.ts", hash: "sha256:11111111111111111111111111111111", parameters },
      },
    };
    const kit = new Toolkit([new Weather()], { manifest });
    expect(kit.tools()[0]!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", minLength: 1 } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(await kit.execute("weather", { city: "Oslo" }, { state: { user: "ada" } })).toEqual({
      output: "sun in Oslo for ada",
      isError: false,
    });
  });

  it("tools are inherited, and an override in a subclass wins", async () => {
    class Base {
      @Tool({ description: "Greets", input: z.object({ name: z.string() }) })
      greet({ name }: { name: string }) {
        return `hello ${name}`;
      }

      @Tool("Pings")
      ping() {
        return "pong";
      }
    }
    class Loud extends Base {
      @Tool({ description: "Greets loudly", input: z.object({ name: z.string() }) })
      override greet({ name }: { name: string }) {
        return `HELLO ${name}`;
      }
    }
    const kit = new Toolkit([new Loud()]);
    expect(
      kit
        .tools()
        .map((tool) => `${tool.name}: ${tool.description}`)
        .sort(),
    ).toEqual(["greet: Greets loudly", "ping: Pings"]);
    expect((await kit.execute("greet", { name: "ada" })).output).toBe("HELLO ada");
    expect(scanTools(new Base()).map((tool) => tool.description)).toEqual(["Greets", "Pings"]);
  });

  it("records the file that defined the class (where its manifest is looked for)", () => {
    class Located {
      @Tool("Locates")
      locate() {
        return "";
      }
    }
    expect(definingFileOf(Located.prototype)).toBe(__filename);
  });

  it("a static method is refused when its class is defined, naming class and method", () => {
    expect(() => {
      class Registry {
        @Tool("Lists")
        static list() {
          return [];
        }
      }
      return Registry;
    }).toThrow("@Tool on static method Registry.list: tools are instance methods.");
  });

  it("a private method is refused", () => {
    expect(() => {
      class Secret {
        @Tool("Hidden")
        #hidden() {
          return "";
        }
        use() {
          return this.#hidden();
        }
      }
      return Secret;
    }).toThrow("@Tool on #hidden: @Tool goes on public methods with string names.");
  });

  it("@Param reached by standard decorators says which mode the code is compiled with", () => {
    // Parameter decorators do not compile under standard decorators; applied to a method they run as one.
    const misapplied = Param("city") as unknown as (method: Function, context: object) => void;
    expect(() => {
      class Weather {
        @misapplied
        weather() {
          return "";
        }
      }
      return Weather;
    }).toThrow(/^@Param on method weather: this code is compiled with standard \(TC39\) decorators/);
  });

  it("an input tool whose method declares more than (args, ctx) fails the scan", () => {
    class Wide {
      @Tool({ description: "Too wide", input: z.object({ a: z.string() }) })
      wide(args: { a: string }, ctx: ToolContext, extra?: string) {
        return `${args.a}${String(ctx.callId)}${extra ?? ""}`;
      }
    }
    expect(scanErrorOf(new Wide()).message).toBe(
      "Wide.wide: with @Tool({ input }) the method takes (args, ctx), but it declares 3 parameters. Read every " +
        "argument from the one args object.",
    );
  });
});
