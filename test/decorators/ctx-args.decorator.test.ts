import "reflect-metadata";
import { IsString } from "class-validator";
import { Args, Ctx, Param, ScanError, Tool, Toolkit, scanTools, type ToolContext } from "../../src";

describe("@Ctx", () => {
  const seen: Array<{ ctx: ToolContext; args: unknown[] }> = [];

  class Contextual {
    @Tool("Ctx first")
    first(@Ctx() ctx: ToolContext, city: string) {
      seen.push({ ctx, args: [city] });
      return `first ${city}`;
    }

    @Tool("Ctx in the middle")
    middle(city: string, @Ctx() ctx: ToolContext, days: number) {
      seen.push({ ctx, args: [city, days] });
      return `middle ${city} ${days}`;
    }

    @Tool("Ctx last")
    last(city: string, @Ctx() ctx: ToolContext) {
      seen.push({ ctx, args: [city] });
      return `last ${city}`;
    }
  }

  const kit = new Toolkit([new Contextual()]);

  beforeEach(() => {
    seen.length = 0;
  });

  it("is left out of the schema wherever it stands", () => {
    const cityOnly = {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    };
    expect(kit.get("first")!.inputSchema).toEqual(cityOnly);
    expect(kit.get("last")!.inputSchema).toEqual(cityOnly);
    expect(kit.get("middle")!.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number" } },
      required: ["city", "days"],
      additionalProperties: false,
    });
  });

  it.each([
    ["first", { city: "Lima" }, "first Lima", ["Lima"]],
    ["middle", { city: "Lima", days: 2 }, "middle Lima 2", ["Lima", 2]],
    ["last", { city: "Lima" }, "last Lima", ["Lima"]],
  ])(
    "in %s position it receives callId, provider and state; the others their arguments",
    async (name, args, output, expectedArgs) => {
      const state = { user: "u-1", tenant: "t-9" };
      const result = await kit.execute(name, args, { callId: "call_1", provider: "openai", state });
      expect(result).toEqual({ output, isError: false });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.args).toEqual(expectedArgs);
      expect(seen[0]!.ctx).toMatchObject({ callId: "call_1", provider: "openai" });
      expect(seen[0]!.ctx.state).toBe(state);
    },
  );

  it.each([
    ["first", { city: "Oslo" }],
    ["middle", { city: "Oslo", days: 1 }],
    ["last", { city: "Oslo" }],
  ])("in %s position it is an object even when execute gets no ctx", async (name, args) => {
    const result = await kit.get(name)!.execute(args);
    expect(result.isError).toBe(false);
    expect(seen).toHaveLength(1);
    expect(typeof seen[0]!.ctx).toBe("object");
    expect(seen[0]!.ctx).not.toBeNull();
    expect(seen[0]!.ctx.callId).toBeUndefined();
  });

  it("is an object through Toolkit.execute without ctx, too", async () => {
    await kit.execute("last", { city: "Oslo" });
    expect(seen[0]!.ctx).toEqual(expect.any(Object));
  });

  it("carries an AbortSignal when the call has a timeout", async () => {
    await kit.execute("first", { city: "Oslo" }, { timeout: 1_000, callId: "c2" });
    expect(seen[0]!.ctx.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]!.ctx.callId).toBe("c2");
  });

  it("@Ctx alone: a tool with no model-visible parameters", async () => {
    class Who {
      @Tool("Who am I")
      whoami(@Ctx() ctx: ToolContext) {
        return String(ctx.state?.user ?? "anonymous");
      }
    }
    const whoKit = new Toolkit([new Who()]);
    expect(whoKit.get("whoami")!.inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(await whoKit.execute("whoami", {}, { state: { user: "ada" } })).toEqual({ output: "ada", isError: false });
    expect(await whoKit.execute("whoami", {})).toEqual({ output: "anonymous", isError: false });
  });
});

describe("@Args", () => {
  class NoteDto {
    @IsString() text!: string;
  }

  it("combines with @Ctx", async () => {
    class Notes {
      @Tool("Adds a note")
      add(@Args() note: NoteDto, @Ctx() ctx: ToolContext) {
        return `${note.text} by ${String(ctx.state?.user)}`;
      }
    }
    const kit = new Toolkit([new Notes()]);
    expect(kit.get("add")!.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    });
    expect(await kit.execute("add", { text: "hi" }, { state: { user: "bo" } })).toEqual({
      output: "hi by bo",
      isError: false,
    });
  });

  it("combined with @Param is a ScanError", () => {
    class Notes {
      @Tool("Adds a note")
      add(@Args() note: NoteDto, @Param("tag") tag: string) {
        return note.text + tag;
      }
    }
    expect(() => scanTools(new Notes())).toThrow(ScanError);
    expect(() => scanTools(new Notes())).toThrow(
      "Notes.add: @Args takes the whole argument object, so it cannot be combined with @Param parameters. Move them into the DTO.",
    );
  });

  it("combined with an undecorated parameter is a ScanError too", () => {
    class Notes {
      @Tool("Adds a note")
      add(tag: string, @Args() note: NoteDto) {
        return note.text + tag;
      }
    }
    expect(() => scanTools(new Notes())).toThrow(
      "Notes.add: @Args takes the whole argument object, so it cannot be combined with @Param parameters. Move them into the DTO.",
    );
  });
});
