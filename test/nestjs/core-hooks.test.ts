/**
 * The three small core hooks toolnexus/nestjs is built on, checked on the core directly:
 * `scanTools(instance, { namePrefix })`, `scanPrototype(prototype, { invoke })` (tools of a class
 * whose calls an integration runs), and the list of classes `@Tool` has decorated.
 */
import "reflect-metadata";
import { scanTools, Tool, Toolkit } from "toolnexus";
import { decoratedClasses } from "../../src/decorators/metadata";
import type { MethodInvoker } from "../../src/runtime/decorated";
import { scanPrototype } from "../../src/scanner/scan-tools";

class Greeter {
  constructor(private readonly greeting = "hello") {}

  @Tool("Greet someone")
  greet(name: string) {
    return `${this.greeting} ${name}`;
  }
}

describe("scanTools namePrefix", () => {
  it("puts the prefix before every tool name, and the tool answers under that name", async () => {
    const [tool] = scanTools(new Greeter(), { namePrefix: "front_" });
    expect(tool!.name).toBe("front_greet");
    const toolkit = new Toolkit([tool!]);
    expect((await toolkit.execute("front_greet", { name: "Ada" })).output).toBe("hello Ada");
    expect((await toolkit.execute("front_greet", {})).output).toContain('tool "front_greet"');
  });
});

describe("scanPrototype with invoke", () => {
  const toolsOf = (invoke: MethodInvoker) => scanPrototype(Greeter.prototype, { invoke, manifest: false });
  const standIn = (receiver: (ctx: { state?: Record<string, unknown> }) => unknown) =>
    toolsOf(async ({ method, positional, ctx }) => method.apply(await receiver(ctx), positional));

  it("hands the invoker the method, its positional arguments, the named arguments and the ctx", async () => {
    const invoke = jest.fn<unknown, Parameters<MethodInvoker>>(() => "invoked");
    const result = await new Toolkit(toolsOf(invoke)).execute("greet", { name: "Ada" }, { state: { user: "u-1" } });
    expect(result.output).toBe("invoked");
    const [call] = invoke.mock.calls[0]!;
    expect(call).toMatchObject({
      tool: "greet",
      methodName: "greet",
      method: Greeter.prototype.greet,
      positional: ["Ada"],
      args: { name: "Ada" },
    });
    expect(call.ctx.state).toEqual({ user: "u-1" });
  });

  it("runs each call on the instance the receiver gives for that call's context", async () => {
    const toolkit = new Toolkit(standIn(async (ctx) => new Greeter(String(ctx.state?.greeting))));
    expect((await toolkit.execute("greet", { name: "Ada" }, { state: { greeting: "hi" } })).output).toBe("hi Ada");
    expect((await toolkit.execute("greet", { name: "Bob" }, { state: { greeting: "hey" } })).output).toBe("hey Bob");
  });

  it("is not asked when the arguments are invalid", async () => {
    const receiver = jest.fn(() => new Greeter());
    const result = await new Toolkit(standIn(receiver)).execute("greet", { name: 1 });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(receiver).not.toHaveBeenCalled();
  });

  it("a receiver that fails or hangs is an error result, under the call's limits", async () => {
    const failing = new Toolkit(
      standIn(() => {
        throw new Error("cannot build Greeter");
      }),
    );
    expect(await failing.execute("greet", { name: "Ada" })).toEqual({
      output: "cannot build Greeter",
      isError: true,
      metadata: { error: "execution_failed" },
    });
    const hanging = new Toolkit(standIn(() => new Promise(() => {})));
    expect((await hanging.execute("greet", { name: "Ada" }, { timeout: 20 })).metadata?.error).toBe("timeout");
  });
});

describe("decoratedClasses", () => {
  it("lists every class whose @Tool decorators ran, once", () => {
    class LateService {
      @Tool("One")
      one() {}
      @Tool("Two")
      two() {}
    }
    const classes = decoratedClasses();
    expect(classes).toContain(Greeter);
    expect(classes.filter((cls) => cls === LateService)).toHaveLength(1);
  });
});
