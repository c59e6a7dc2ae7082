import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { Controller, Get, Injectable, Module, Param, type INestApplication } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Param as ToolnexusParam, Tool, Toolkit, scanTools } from "toolnexus";
import { ToolnexusModule, ToolParam } from "toolnexus/nestjs";

// `ToolParam` is `@Param` under a name that does not clash with NestJS's route-parameter
// `@Param`, so one file can use both.

describe("ToolParam", () => {
  it("is the very same decorator as toolnexus's Param", () => {
    expect(ToolParam).toBe(ToolnexusParam);
  });

  it("gives the same tool as @Param: schema, names, optional parameters, and the call", async () => {
    class WithParam {
      @Tool("Quote a price")
      quote(
        @ToolnexusParam("sku", { description: "The SKU", pattern: /^TEA-\d\d$/ }) code: string,
        @ToolnexusParam({ integer: true, minimum: 1 }) quantity: number = 1,
      ) {
        return `${code} x${quantity}`;
      }
    }
    class WithToolParam {
      @Tool("Quote a price")
      quote(
        @ToolParam("sku", { description: "The SKU", pattern: /^TEA-\d\d$/ }) code: string,
        @ToolParam({ integer: true, minimum: 1 }) quantity: number = 1,
      ) {
        return `${code} x${quantity}`;
      }
    }
    const [viaParam] = scanTools(new WithParam());
    const [viaToolParam] = scanTools(new WithToolParam());
    expect(viaToolParam!.name).toBe(viaParam!.name);
    expect(viaToolParam!.description).toBe(viaParam!.description);
    expect(viaToolParam!.inputSchema).toEqual(viaParam!.inputSchema);
    expect(viaToolParam!.inputSchema.required).toEqual(["sku"]);
    const args = { sku: "TEA-01", quantity: "3" };
    expect(await new Toolkit([new WithToolParam()]).execute("quote", args)).toEqual(
      await new Toolkit([new WithParam()]).execute("quote", args),
    );
    expect((await new Toolkit([new WithToolParam()]).execute("quote", { sku: "nope" })).isError).toBe(true);
  });
});

// ---- one file, both decorators: Nest's @Param on a route, ToolParam on a tool ----

@Injectable()
class PriceService {
  @Tool("Quote the price of some packs of tea")
  quote(
    @ToolParam({ description: "The SKU" }) sku: string,
    @ToolParam({ integer: true, minimum: 1 }) quantity: number,
  ) {
    return { sku, total: (sku === "TEA-01" ? 12 : 18) * quantity };
  }
}

@Controller("prices")
class PricesController {
  constructor(private readonly toolkit: Toolkit) {}

  @Get(":sku/:quantity")
  async price(@Param("sku") sku: string, @Param("quantity") quantity: string) {
    return (await this.toolkit.execute("quote", { sku, quantity })).output;
  }
}

@Module({ imports: [ToolnexusModule.forRoot()], controllers: [PricesController], providers: [PriceService] })
class PricesModule {}

describe("a NestJS controller file that imports Param from @nestjs/common and ToolParam from toolnexus", () => {
  let app: INestApplication;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PricesModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, "127.0.0.1");
  });
  afterAll(() => app?.close());

  it("routes with Nest's @Param and describes the tool with ToolParam", async () => {
    const toolkit = app.get(Toolkit);
    expect(toolkit.get("quote")!.inputSchema).toEqual({
      type: "object",
      properties: { sku: { type: "string", description: "The SKU" }, quantity: { type: "integer", minimum: 1 } },
      required: ["sku", "quantity"],
      additionalProperties: false,
    });
    const { port } = app.getHttpServer().address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/prices/TEA-01/2`);
    expect(await response.text()).toBe(JSON.stringify({ sku: "TEA-01", total: 24 }));
  });
});
