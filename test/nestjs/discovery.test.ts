import "reflect-metadata";
import { Controller, Injectable, Module, Scope, type INestApplicationContext } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Tool, Toolkit } from "toolnexus";
import { ToolnexusExplorer, ToolnexusModule, type ToolnexusModuleOptions } from "toolnexus/nestjs";
import {
  BillingModule,
  BillingService,
  CartModule,
  CatalogModule,
  cartInstanceCount,
  ProductRepository,
  RecordingLogger,
} from "./fixtures";

/** Compiles and initializes an application context (no HTTP) with the given modules. */
async function boot(imports: unknown[], options: ToolnexusModuleOptions = {}) {
  const logger = new RecordingLogger();
  const moduleRef = await Test.createTestingModule({ imports: [ToolnexusModule.forRoot(options), ...(imports as [])] })
    .setLogger(logger)
    .compile();
  const app: INestApplicationContext = await moduleRef.init();
  return { app, logger, toolkit: app.get(Toolkit), explorer: app.get(ToolnexusExplorer) };
}

describe("discovery across modules", () => {
  let app: INestApplicationContext;
  let toolkit: Toolkit;
  let logger: RecordingLogger;
  let explorer: ToolnexusExplorer;

  beforeAll(async () => {
    ({ app, toolkit, logger, explorer } = await boot([CatalogModule, BillingModule, CartModule]));
  });
  afterAll(() => app.close());

  it("puts the tools of every provider of every module in one injectable Toolkit", () => {
    expect(toolkit).toBeInstanceOf(Toolkit);
    expect(
      toolkit
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["addToCart", "checkout", "createInvoice", "findProduct", "increment", "list_products"].sort());
    // Schemas come from the decorators, exactly as scanTools builds them.
    expect(toolkit.get("findProduct")!.inputSchema).toEqual({
      type: "object",
      properties: { sku: { type: "string", description: "The SKU, e.g. TEA-01" } },
      required: ["sku"],
      additionalProperties: false,
    });
    expect(toolkit.get("createInvoice")!.inputSchema.required).toEqual(["sku", "quantity"]);
  });

  it("reports each tool with its provider, method, module and scope, and logs one line per tool", () => {
    expect(explorer.discovered).toEqual(
      expect.arrayContaining([
        {
          name: "findProduct",
          provider: "CatalogService",
          method: "findProduct",
          module: "CatalogModule",
          scope: "singleton",
        },
        {
          name: "list_products",
          provider: "CatalogService",
          method: "list",
          module: "CatalogModule",
          scope: "singleton",
        },
        {
          name: "createInvoice",
          provider: "BillingService",
          method: "createInvoice",
          module: "BillingModule",
          scope: "singleton",
        },
        { name: "addToCart", provider: "CartService", method: "addToCart", module: "CartModule", scope: "request" },
        { name: "checkout", provider: "CheckoutService", method: "checkout", module: "CartModule", scope: "request" },
        {
          name: "increment",
          provider: "CounterService",
          method: "increment",
          module: "CartModule",
          scope: "transient",
        },
      ]),
    );
    expect(explorer.discovered).toHaveLength(6);
    const lines = logger.toolnexus("log");
    expect(lines).toContain('Tool "list_products" → CatalogService.list (CatalogModule)');
    expect(lines).toContain('Tool "addToCart" → CartService.addToCart (CartModule, request-scoped)');
    expect(lines).toContain('Tool "increment" → CounterService.increment (CartModule, transient)');
    expect(lines.filter((line) => line.startsWith("Tool "))).toHaveLength(6);
    expect(lines).toContain("6 tools in the toolkit");
  });

  it("finds an exported provider once, under the module that declares it", () => {
    // CatalogService is exported by CatalogModule and injected into BillingService.
    expect(explorer.discovered.filter((d) => d.provider === "CatalogService").map((d) => d.module)).toEqual([
      "CatalogModule",
      "CatalogModule",
    ]);
  });

  it("runs tools on the DI-created instances, with their injected dependencies", async () => {
    // Change the injected repository: the tool sees it, so it runs on the DI instance.
    app
      .get(ProductRepository, { strict: false })
      .products.set("TEA-09", { sku: "TEA-09", name: "Nilgiri tea", price: 15 });
    expect(JSON.parse((await toolkit.execute("findProduct", { sku: "TEA-09" })).output)).toEqual({
      sku: "TEA-09",
      name: "Nilgiri tea",
      price: 15,
    });
    expect(JSON.parse((await toolkit.execute("list_products", {})).output)).toContain("TEA-09");

    // BillingService → CatalogService (exported from another module) → ProductRepository.
    const result = await toolkit.execute("createInvoice", { sku: "TEA-02", quantity: "3" }, { state: { user: "ada" } });
    expect(JSON.parse(result.output)).toEqual({ invoice: 1, total: 54, by: "ada" });
    expect(app.get(BillingService, { strict: false }).invoices).toEqual([
      { sku: "TEA-02", quantity: 3, total: 54, by: "ada" },
    ]);
  });

  it("keeps failure as data: a throw in a provider's method is an error result", async () => {
    const result = await toolkit.execute("findProduct", { sku: "NOPE" });
    expect(result).toEqual({
      output: "No product with SKU NOPE",
      isError: true,
      metadata: { error: "execution_failed" },
    });
    const bad = await toolkit.execute("createInvoice", { sku: "TEA-01" });
    expect(bad.isError).toBe(true);
    expect(bad.metadata?.error).toBe("invalid_arguments");
    expect(bad.output).toContain('"quantity"');
  });
});

describe("request-scoped providers", () => {
  let app: INestApplicationContext;
  let toolkit: Toolkit;
  let instancesBefore: number;

  beforeAll(async () => {
    instancesBefore = cartInstanceCount();
    ({ app, toolkit } = await boot([CartModule]));
  });
  afterAll(() => app.close());

  it("have their schema at startup without any instance being made", () => {
    expect(cartInstanceCount()).toBe(instancesBefore);
    expect(toolkit.get("addToCart")!.inputSchema).toEqual({
      type: "object",
      properties: { sku: { type: "string" } },
      required: ["sku"],
      additionalProperties: false,
    });
  });

  it("run on the instance of the call's request (ctx.state.request), which is also REQUEST", async () => {
    const ada = { user: "ada" };
    const bob = { user: "bob" };
    const first = JSON.parse(
      (await toolkit.execute("addToCart", { sku: "TEA-01" }, { state: { request: ada } })).output,
    );
    const second = JSON.parse(
      (await toolkit.execute("addToCart", { sku: "TEA-02" }, { state: { request: ada } })).output,
    );
    const other = JSON.parse(
      (await toolkit.execute("addToCart", { sku: "TEA-03" }, { state: { request: bob } })).output,
    );
    expect(first).toEqual({ cart: first.cart, user: "ada", items: ["TEA-01"] });
    // Same request: same instance (the request's DI sub-tree is reused).
    expect(second).toEqual({ cart: first.cart, user: "ada", items: ["TEA-01", "TEA-02"] });
    // Another request: another instance.
    expect(other.cart).not.toBe(first.cart);
    expect(other).toEqual({ cart: other.cart, user: "bob", items: ["TEA-03"] });
  });

  it("include providers that are request-scoped only through a dependency, sharing the request's sub-tree", async () => {
    const request = { user: "cy" };
    const added = JSON.parse((await toolkit.execute("addToCart", { sku: "TEA-01" }, { state: { request } })).output);
    const checkout = JSON.parse((await toolkit.execute("checkout", {}, { state: { request } })).output);
    expect(checkout).toEqual({ cart: added.cart, items: 1 });
  });

  it("get a fresh instance per call when no request is given (REQUEST is then undefined)", async () => {
    const before = cartInstanceCount();
    const a = JSON.parse((await toolkit.execute("addToCart", { sku: "TEA-01" })).output);
    const b = JSON.parse((await toolkit.execute("addToCart", { sku: "TEA-01" })).output);
    expect(cartInstanceCount()).toBe(before + 2);
    expect(a.cart).not.toBe(b.cart);
    expect(a).toEqual({ cart: a.cart, user: null, items: ["TEA-01"] });
  });

  it("do not make an instance when the arguments are invalid", async () => {
    const before = cartInstanceCount();
    const result = await toolkit.execute("addToCart", { sku: 42 }, { state: { request: { user: "ada" } } });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(cartInstanceCount()).toBe(before);
  });

  it("transient providers: the toolkit keeps its own instance", async () => {
    const one = JSON.parse((await toolkit.execute("increment", {})).output);
    const two = JSON.parse((await toolkit.execute("increment", {})).output);
    expect(two).toEqual({ instance: one.instance, count: one.count + 1 });
  });
});

describe("a request-scoped provider that cannot be built", () => {
  @Injectable({ scope: Scope.REQUEST })
  class BrokenService {
    constructor() {
      throw new Error("database is down");
    }
    @Tool("Needs the database")
    lookup(id: string) {
      return id;
    }
  }
  @Module({ providers: [BrokenService] })
  class BrokenModule {}

  it("answers with an error result, not an exception", async () => {
    const { app, toolkit } = await boot([BrokenModule]);
    try {
      const result = await toolkit.execute("lookup", { id: "1" }, { state: { request: {} } });
      expect(result).toEqual({ output: "database is down", isError: true, metadata: { error: "execution_failed" } });
    } finally {
      await app.close();
    }
  });
});

describe("inheritance", () => {
  abstract class AuditedService {
    protected readonly log: string[] = [];
    @Tool("Show the audit log of this service")
    auditLog() {
      return this.log;
    }
  }

  @Injectable()
  class ShippingService extends AuditedService {
    @Tool("Ship an order")
    ship(orderId: string) {
      this.log.push(`shipped ${orderId}`);
      return "ok";
    }
  }
  @Module({ providers: [ShippingService] })
  class ShippingModule {}

  it("finds inherited @Tool methods, and does not report the base class as unregistered", async () => {
    const { app, toolkit, logger } = await boot([ShippingModule]);
    try {
      expect(
        toolkit
          .tools()
          .map((t) => t.name)
          .sort(),
      ).toEqual(["auditLog", "ship"]);
      await toolkit.execute("ship", { orderId: "A1" });
      expect(JSON.parse((await toolkit.execute("auditLog", {})).output)).toEqual(["shipped A1"]);
      expect(logger.toolnexus("warn").join("\n")).not.toContain("AuditedService");
    } finally {
      await app.close();
    }
  });
});

describe("discovery report warnings", () => {
  @Controller("orders")
  class OrdersController {
    @Tool("A tool on a controller")
    cancelOrder(id: string) {
      return id;
    }
  }
  @Module({ controllers: [OrdersController] })
  class OrdersModule {}

  it("warns about classes with @Tool methods that no module provides, and about controllers", async () => {
    const { app, logger } = await boot([CatalogModule, OrdersModule]);
    try {
      const warnings = logger.toolnexus("warn");
      expect(warnings).toContainEqual(
        expect.stringMatching(/^ForgottenService has @Tool methods \(forgotten\) but is not a provider of any module/),
      );
      expect(warnings).toContainEqual(
        expect.stringMatching(
          /^OrdersController has @Tool methods \(cancelOrder\) but is a controller: tools are discovered on providers only/,
        ),
      );
      // Registered providers are never reported.
      expect(warnings.join("\n")).not.toMatch(/CatalogService/);
    } finally {
      await app.close();
    }
  });

  it("is silent with warnUnregistered: false", async () => {
    const { app, logger } = await boot([CatalogModule], { warnUnregistered: false });
    try {
      expect(logger.toolnexus("warn")).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
