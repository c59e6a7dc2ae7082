import "reflect-metadata";
import { Tool, Toolkit, scanTools } from "../../src";
import { scanErrorOf } from "../support/scan-error";

describe("@Tool", () => {
  it('@Tool("description"): name defaults to the method name', () => {
    class Weather {
      @Tool("Current weather for a city")
      getWeather(city: string) {
        return city;
      }
    }
    const [tool] = scanTools(new Weather());
    expect(tool!.name).toBe("getWeather");
    expect(tool!.description).toBe("Current weather for a city");
    expect(tool!.source).toBe("decorator");
    expect(tool!.annotations).toBeUndefined();
  });

  it("@Tool({ name, description, annotations })", () => {
    class Weather {
      @Tool({
        name: "get_weather",
        description: "Current weather",
        annotations: { title: "Weather", readOnly: true, idempotent: true, openWorld: true },
      })
      weather(city: string) {
        return city;
      }
    }
    const [tool] = scanTools(new Weather());
    expect(tool!.name).toBe("get_weather");
    expect(tool!.description).toBe("Current weather");
    expect(tool!.annotations).toEqual({ title: "Weather", readOnly: true, idempotent: true, openWorld: true });
    expect(tool!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("@Tool({ description }) without name uses the method name", () => {
    class Notes {
      @Tool({ description: "Adds a note" })
      addNote(text: string) {
        return text;
      }
    }
    expect(scanTools(new Notes()).map((tool) => tool.name)).toEqual(["addNote"]);
  });

  it("the tool is registered and run under its declared name", async () => {
    class Weather {
      @Tool({ name: "get_weather", description: "Current weather" })
      weather(city: string) {
        return `sunny in ${city}`;
      }
    }
    const kit = new Toolkit([new Weather()]);
    expect(kit.has("get_weather")).toBe(true);
    expect(kit.has("weather")).toBe(false);
    expect(await kit.execute("get_weather", { city: "Oslo" })).toEqual({ output: "sunny in Oslo", isError: false });
  });

  it("each tool gets its own copy of the annotations", () => {
    const annotations = { readOnly: true };
    class Reader {
      @Tool({ description: "Reads", annotations })
      read() {
        return "";
      }
    }
    const [first] = scanTools(new Reader());
    const [second] = scanTools(new Reader());
    expect(first!.annotations).toEqual({ readOnly: true });
    expect(first!.annotations).not.toBe(annotations);
    expect(first!.annotations).not.toBe(second!.annotations);
  });

  it("@Tool() without description is a ScanError naming class and method", () => {
    class Undescribed {
      @Tool()
      lookup(id: string) {
        return id;
      }
    }
    // Followed by where a manifest (which could supply it) was looked for.
    expect(scanErrorOf(new Undescribed()).message).toMatch(
      /^Undescribed\.lookup: Tool "lookup" needs a non-empty description: models choose tools by it\. Use @Tool\("what it does"\)\. No toolnexus\.manifest\.json found /,
    );
  });

  it("@Tool({ name }) without description is a ScanError naming class and method", () => {
    class Undescribed {
      @Tool({ name: "find_item" })
      lookup(id: string) {
        return id;
      }
    }
    const error = scanErrorOf(new Undescribed());
    expect(error.message).toContain("Undescribed.lookup");
    expect(error.message).toContain('Tool "find_item" needs a non-empty description');
  });

  it("a blank description is a ScanError too", () => {
    class Blank {
      @Tool("   ")
      run() {
        return "";
      }
    }
    expect(scanErrorOf(new Blank()).message).toBe(
      'Blank.run: Tool "run" needs a non-empty description: models choose tools by it.',
    );
  });

  it("a name no provider accepts is a ScanError naming class and method", () => {
    class BadName {
      @Tool({ name: "get weather!", description: "Weather" })
      run() {
        return "";
      }
    }
    const error = scanErrorOf(new BadName());
    expect(error.message).toContain("BadName.run: ");
    expect(error.message).toContain('Tool name "get weather!" is accepted by no provider.');
  });

  it("a non-positive timeout is a ScanError", () => {
    class BadTimeout {
      @Tool({ description: "Slow", timeout: 0 })
      run() {
        return "";
      }
    }
    const message = scanErrorOf(new BadTimeout()).message;
    expect(message.startsWith('BadTimeout.run: Tool "run": timeout must be a positive number of milliseconds')).toBe(
      true,
    );
    expect(message).toContain("(got 0).");
  });

  it('@Tool({ timeout }) ends a slow call with metadata.error "timeout"', async () => {
    let started = 0;
    class Slow {
      @Tool({ description: "Never finishes", timeout: 25 })
      wait() {
        started++;
        return new Promise<string>(() => undefined);
      }
    }
    const kit = new Toolkit([new Slow()]);
    const result = await kit.execute("wait", {});
    expect(started).toBe(1);
    expect(result).toEqual({
      output: 'Tool "wait" timed out after 25 ms',
      isError: true,
      metadata: { timeoutMs: 25, error: "timeout" },
    });
  });

  it("the tool's timeout does not affect a fast call, and the call's own timeout wins", async () => {
    class Mixed {
      @Tool({ description: "Quick or slow", timeout: 5_000 })
      run(slow: boolean) {
        return slow ? new Promise<string>(() => undefined) : "fast";
      }
    }
    const kit = new Toolkit([new Mixed()]);
    expect(await kit.execute("run", { slow: false })).toEqual({ output: "fast", isError: false });
    const result = await kit.execute("run", { slow: true }, { timeout: 20 });
    expect(result.metadata?.error).toBe("timeout");
    expect(result.output).toBe('Tool "run" timed out after 20 ms');
  });

  it("@Tool on a static method throws a TypeError naming the class", () => {
    expect(() => {
      class Statics {
        @Tool("Static")
        static run() {
          return "";
        }
      }
      return Statics;
    }).toThrow(new TypeError("@Tool on static method Statics.run: tools are instance methods."));
  });

  it("@Tool on a property that is not a method throws a TypeError", () => {
    const decorate = Tool("Not a method") as (target: object, key: string, descriptor?: PropertyDescriptor) => void;
    class Holder {}
    expect(() => decorate(Holder.prototype, "value", { value: 42 })).toThrow(
      new TypeError("@Tool on Holder.value: @Tool goes on methods with string names."),
    );
  });

  it("a method throwing becomes execution_failed, not an exception", async () => {
    class Failing {
      @Tool("Fails")
      fail() {
        throw new Error("database down");
      }
    }
    const kit = new Toolkit([new Failing()]);
    expect(await kit.execute("fail", {})).toEqual({
      output: "database down",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });
});
