import "reflect-metadata";
import { IsInt, IsString, Min } from "class-validator";
import { z } from "zod";
import { Param, Tool, Toolkit, scanTools, type ToolContext } from "../../src";
import { scanPrototype } from "../../src/scanner/scan-tools";
import type { MethodCall } from "../../src/runtime/decorated";
import { scanErrorOf } from "../support/scan-error";

class OrderInput {
  @IsString()
  sku!: string;

  @IsInt()
  @Min(1)
  quantity!: number;

  total(): string {
    return `${this.quantity} × ${this.sku}`;
  }
}

describe("@Tool({ input }): the tool's whole input, the method taking (args, ctx)", () => {
  it("a DTO class: its class-validator schema, and the method gets a checked instance and the ctx", async () => {
    class Orders {
      @Tool({ description: "Places an order", input: OrderInput })
      place(order: OrderInput, ctx: ToolContext) {
        return `${order instanceof OrderInput ? order.total() : "not an instance"} for ${String(ctx.state?.user)}`;
      }
    }
    const kit = new Toolkit([new Orders()]);
    expect(kit.tools()[0]!.inputSchema).toMatchObject({
      properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
    });
    expect(await kit.execute("place", { sku: "tea", quantity: 2 }, { state: { user: "ada" } })).toEqual({
      output: "2 × tea for ada",
      isError: false,
    });
    expect((await kit.execute("place", { sku: "tea", quantity: 0 })).metadata?.error).toBe("invalid_arguments");
  });

  it("a Standard Schema works under legacy decorators too, with the tool's other options", async () => {
    class Weather {
      @Tool({
        name: "get_weather",
        description: "Current weather",
        input: z.object({ city: z.string() }),
        timeout: 5_000,
        annotations: { readOnly: true },
        needsApproval: true,
      })
      weather({ city }: { city: string }) {
        return `sun in ${city}`;
      }
    }
    const [tool] = scanTools(new Weather());
    expect(tool).toMatchObject({
      name: "get_weather",
      source: "decorator",
      timeout: 5_000,
      annotations: { readOnly: true },
      needsApproval: true,
    });
  });

  it("an integration's invoker gets (args, ctx) as the method's positional arguments", async () => {
    class Weather {
      @Tool({ description: "Current weather", input: z.object({ city: z.string().trim() }) })
      weather({ city }: { city: string }) {
        return `sun in ${city}`;
      }
    }
    const calls: MethodCall[] = [];
    const [tool] = scanPrototype(Weather.prototype, {
      invoke: (call) => {
        calls.push(call);
        return call.method.apply(new Weather(), call.positional);
      },
    });
    expect(await tool!.execute({ city: " Oslo " }, { callId: "c7" })).toEqual({
      output: "sun in Oslo",
      isError: false,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tool: "weather", methodName: "weather", args: { city: "Oslo" } });
    expect(calls[0]!.positional).toEqual([{ city: "Oslo" }, expect.objectContaining({ callId: "c7" })]);
  });

  it("parameter decorators beside it are refused: the input is the whole input", () => {
    class Mixed {
      @Tool({ description: "Mixed", input: z.object({ city: z.string() }) })
      weather(@Param("city") city: string) {
        return city;
      }
    }
    expect(scanErrorOf(new Mixed()).message).toBe(
      "Mixed.weather: @Tool({ input }) gives the tool's whole input, so its parameters take no @Param, @Ctx or " +
        "@Args. Drop those decorators (the method takes (args, ctx)), or drop input and describe each parameter " +
        "with @Param.",
    );
  });

  it("a function that is not a DTO class is refused, naming what input takes", () => {
    class Odd {
      @Tool({ description: "Odd", input: String as never })
      run(args: object) {
        return String(args);
      }
    }
    expect(scanErrorOf(new Odd()).message).toBe(
      "Odd.run: @Tool({ input }) takes a Standard Schema, a JSON Schema or a DTO class (got String).",
    );
  });

  it("a schema of something other than an object is refused when the tool is scanned", () => {
    class Scalar {
      @Tool({ description: "Scalar", input: z.string() })
      run(args: unknown) {
        return String(args);
      }
    }
    expect(scanErrorOf(new Scalar()).message).toMatch(/^Scalar\.run: Tool "run": inputSchema is .*object/);
  });
});
