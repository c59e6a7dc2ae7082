import "reflect-metadata";
import { Inject, Injectable, Module, type OnModuleInit } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { defineTool, DuplicateToolError, ScanError, Tool, Toolkit, type ToolFailure } from "toolnexus";
import { prefixFromModuleName, ToolnexusModule, type ToolnexusModuleOptions } from "toolnexus/nestjs";
import {
  BillingModule,
  BillingService,
  CartModule,
  CatalogModule,
  CatalogService,
  CheckoutService,
  RecordingLogger,
} from "./fixtures";

async function boot(imports: unknown[], options: ToolnexusModuleOptions = {}) {
  const logger = new RecordingLogger();
  const moduleRef = await Test.createTestingModule({ imports: [ToolnexusModule.forRoot(options), ...(imports as [])] })
    .setLogger(logger)
    .compile();
  const app = await moduleRef.init();
  return { app, logger, toolkit: app.get(Toolkit) };
}

/** The sorted tool names an application ends up with. */
async function namesWith(imports: unknown[], options: ToolnexusModuleOptions): Promise<string[]> {
  const { app, toolkit } = await boot(imports, options);
  await app.close();
  return toolkit
    .tools()
    .map((t) => t.name)
    .sort();
}

// Two modules whose providers both declare a tool named "refund".
@Injectable()
class ShopRefunds {
  @Tool("Refund a shop order")
  refund(orderId: string) {
    return `shop order ${orderId} refunded`;
  }
}
@Module({ providers: [ShopRefunds] })
class ShopModule {}

@Injectable()
class PaymentRefunds {
  @Tool("Refund a card payment")
  refund(paymentId: string) {
    return `payment ${paymentId} refunded`;
  }
}
@Module({ providers: [PaymentRefunds] })
class PaymentsModule {}

// One class provided by two modules: two instances, so the same tool twice.
@Injectable()
class AuditTrail {
  @Tool("Read the audit trail")
  audit() {
    return [];
  }
}
@Module({ providers: [AuditTrail] })
class AdminModule {}
@Module({ providers: [AuditTrail] })
class SupportModule {}

describe("include / exclude", () => {
  const all = [CatalogModule, BillingModule, CartModule];

  it("include by module keeps only that module's providers", async () => {
    expect(await namesWith(all, { include: [CatalogModule] })).toEqual(["findProduct", "list_products"]);
  });

  it("include by provider keeps only that provider", async () => {
    expect(await namesWith(all, { include: [BillingService] })).toEqual(["createInvoice"]);
  });

  it("exclude by module and by provider leave those out", async () => {
    expect(await namesWith(all, { exclude: [CartModule] })).toEqual(["createInvoice", "findProduct", "list_products"]);
    expect(await namesWith(all, { exclude: [CheckoutService, CatalogService] })).toEqual([
      "addToCart",
      "createInvoice",
      "increment",
    ]);
  });

  it("exclude wins over include", async () => {
    expect(await namesWith(all, { include: [CartModule], exclude: [CheckoutService] })).toEqual([
      "addToCart",
      "increment",
    ]);
  });

  it("an excluded provider is still a registered one: no 'not a provider' warning", async () => {
    const { app, logger } = await boot(all, { exclude: [CatalogModule] });
    await app.close();
    expect(logger.toolnexus("warn").join("\n")).not.toContain("CatalogService");
    expect(logger.toolnexus("debug")).toContain(
      "Skipped CatalogService (CatalogModule): excluded by the include/exclude options",
    );
  });
});

describe("duplicate tool names", () => {
  it("across modules: startup fails with one error naming each provider, method and module", async () => {
    const failure = boot([ShopModule, PaymentsModule]);
    await expect(failure).rejects.toBeInstanceOf(DuplicateToolError);
    const message = ((await failure.catch((e: Error) => e)) as Error).message;
    expect(message).toContain('"refund": ');
    expect(message).toContain("ShopRefunds.refund (module ShopModule)");
    expect(message).toContain("PaymentRefunds.refund (module PaymentsModule)");
    expect(message).toContain("prefix");
  });

  it("the same class provided by two modules is reported with both modules", async () => {
    const message = ((await boot([AdminModule, SupportModule]).catch((e: Error) => e)) as Error).message;
    expect(message).toMatch(
      /"audit": AuditTrail\.audit \(module (AdminModule|SupportModule)\) and AuditTrail\.audit \(module (AdminModule|SupportModule)\)/,
    );
    expect(message).toContain("AdminModule");
    expect(message).toContain("SupportModule");
  });

  it("every clash is listed, including tools given in options.tools", async () => {
    const extra = defineTool({ name: "findProduct", description: "Another findProduct", execute: () => "x" });
    const message = (
      (await boot([ShopModule, PaymentsModule, CatalogModule], { tools: [extra] }).catch((e: Error) => e)) as Error
    ).message;
    expect(message).toContain('"refund": ');
    expect(message).toContain(
      '"findProduct": CatalogService.findProduct (module CatalogModule) and the tools option of ToolnexusModule',
    );
  });

  it("prefixing names per module resolves the clash", async () => {
    const { app, toolkit } = await boot([ShopModule, PaymentsModule], { prefix: true });
    try {
      expect(
        toolkit
          .tools()
          .map((t) => t.name)
          .sort(),
      ).toEqual(["payments_refund", "shop_refund"]);
      expect((await toolkit.execute("shop_refund", { orderId: "7" })).output).toBe("shop order 7 refunded");
      expect((await toolkit.execute("payments_refund", { paymentId: "9" })).output).toBe("payment 9 refunded");
    } finally {
      await app.close();
    }
  });
});

describe("name prefixes", () => {
  it("prefix: true derives the prefix from the module's class name", async () => {
    expect(await namesWith([CatalogModule, BillingModule], { prefix: true })).toEqual([
      "billing_createInvoice",
      "catalog_findProduct",
      "catalog_list_products",
    ]);
    expect(prefixFromModuleName("BillingModule")).toBe("billing");
    expect(prefixFromModuleName("UserAccountsModule")).toBe("user_accounts");
    expect(prefixFromModuleName("HTTPToolsModule")).toBe("http_tools");
  });

  it("a Map sets it per module class; modules not in it get none", async () => {
    expect(await namesWith([CatalogModule, BillingModule], { prefix: new Map([[BillingModule, "pay"]]) })).toEqual([
      "findProduct",
      "list_products",
      "pay_createInvoice",
    ]);
  });

  it("a function decides per provider", async () => {
    const names = await namesWith([CatalogModule, BillingModule, CartModule], {
      prefix: ({ module, provider }) =>
        module === CartModule ? `cart_${provider === CheckoutService ? "co" : "main"}` : undefined,
    });
    expect(names).toEqual([
      "cart_co_checkout",
      "cart_main_addToCart",
      "cart_main_increment",
      "createInvoice",
      "findProduct",
      "list_products",
    ]);
  });

  it("prefixed tools behave exactly like the originals: same schema, DI instance, messages under the new name", async () => {
    const { app, toolkit } = await boot([CatalogModule, BillingModule, CartModule], { prefix: true });
    try {
      const plain = new Toolkit([app.get(CatalogService, { strict: false })]);
      expect(toolkit.get("catalog_findProduct")!.inputSchema).toEqual(plain.get("findProduct")!.inputSchema);
      expect(toolkit.get("catalog_findProduct")!.description).toBe("Find a product by SKU");
      expect(JSON.parse((await toolkit.execute("catalog_findProduct", { sku: "TEA-01" })).output).name).toBe(
        "Assam tea",
      );
      const bad = await toolkit.execute("catalog_findProduct", {});
      expect(bad.output).toContain('tool "catalog_findProduct"');
      // The original metadata is untouched: an unprefixed scan still gives the original names.
      expect(plain.tools().map((t) => t.name)).toEqual(["findProduct", "list_products"]);
      // Request-scoped tools with a prefix.
      const request = { user: "ada" };
      const cart = JSON.parse(
        (await toolkit.execute("cart_addToCart", { sku: "TEA-01" }, { state: { request } })).output,
      );
      expect(cart.user).toBe("ada");
      // The DI instance: state kept on the singleton is visible through the prefixed tool.
      await toolkit.execute("billing_createInvoice", { sku: "TEA-01", quantity: 1 });
      expect(app.get(BillingService, { strict: false }).invoices).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it("a prefix that makes an invalid name fails at startup, naming the provider and module", async () => {
    const failure = (await boot([CatalogModule], { prefix: () => "has space" }).catch((e: Error) => e)) as Error;
    expect(failure).toBeInstanceOf(ScanError);
    expect(failure.message).toContain("CatalogService (provider of CatalogModule)");
    expect(failure.message).toContain('"has space_findProduct"');
  });
});

describe("forRootAsync", () => {
  const TOOL_SETTINGS = Symbol("TOOL_SETTINGS");
  @Module({
    providers: [{ provide: TOOL_SETTINGS, useValue: { only: CatalogModule, prefix: true } }],
    exports: [TOOL_SETTINGS],
  })
  class SettingsModule {}

  it("takes its options from a factory with injected providers", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolnexusModule.forRootAsync({
          imports: [SettingsModule],
          inject: [TOOL_SETTINGS],
          useFactory: async (settings: { only: typeof CatalogModule; prefix: boolean }) => ({
            include: [settings.only],
            prefix: settings.prefix,
          }),
        }),
        CatalogModule,
        BillingModule,
      ],
    })
      .setLogger(new RecordingLogger())
      .compile();
    const app = await moduleRef.init();
    try {
      expect(
        app
          .get(Toolkit)
          .tools()
          .map((t) => t.name),
      ).toEqual(["catalog_findProduct", "catalog_list_products"]);
    } finally {
      await app.close();
    }
  });
});

describe("forRootAsync with the MCP endpoint", () => {
  const MCP_TOKEN = Symbol("MCP_TOKEN");
  @Module({ providers: [{ provide: MCP_TOKEN, useValue: "async-token-0123456789" }], exports: [MCP_TOKEN] })
  class SecretsModule {}

  async function serve(options: Parameters<typeof ToolnexusModule.forRootAsync>[0]) {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRootAsync(options), CatalogModule],
    })
      .setLogger(new RecordingLogger())
      .compile();
    const app = moduleRef.createNestApplication();
    await app.listen(0, "127.0.0.1");
    return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
  }

  it("serves MCP at the route declared in forRootAsync, with the factory's options", async () => {
    const { app, url } = await serve({
      imports: [SecretsModule],
      inject: [MCP_TOKEN],
      mcp: { path: "/tools/mcp" },
      useFactory: (token: string) => ({ mcp: { path: "/tools/mcp", token } }),
    });
    try {
      const list = (headers: Record<string, string>) =>
        fetch(`${url}/tools/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      expect((await list({})).status).toBe(401);
      expect((await list({ authorization: "Bearer async-token-0123456789" })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("refuses mcp options from a factory when no route was declared, and a factory that moves the route", async () => {
    await expect(serve({ useFactory: () => ({ mcp: { path: "/mcp" } }) })).rejects.toThrow(
      'Declare the route in forRootAsync\'s own options: forRootAsync({ mcp: { path: "/mcp" }',
    );
    await expect(serve({ mcp: { path: "/mcp" }, useFactory: () => ({ mcp: { path: "/elsewhere" } }) })).rejects.toThrow(
      'the factory\'s mcp.path ("/elsewhere") differs from the route declared in forRootAsync ("/mcp")',
    );
  });

  it("refuses a path that is no route", () => {
    expect(() => ToolnexusModule.forRoot({ mcp: { path: "" } })).toThrow(
      'mcp.path must be a route such as "/mcp"; got "".',
    );
    expect(() => ToolnexusModule.forRoot({ mcp: { path: "/mcp?x=1" } })).toThrow("mcp.path must be a route");
  });
});

describe("toolkit options", () => {
  @Injectable()
  class SlowService {
    @Tool("Takes its time")
    async slow() {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return "done";
    }
  }
  @Module({ providers: [SlowService] })
  class SlowModule {}

  it("timeout is the toolkit's default timeout", async () => {
    const { app, toolkit } = await boot([SlowModule], { timeout: 20 });
    try {
      const result = await toolkit.execute("slow", {});
      expect(result.isError).toBe(true);
      expect(result.metadata?.error).toBe("timeout");
    } finally {
      await app.close();
    }
  });

  it("onError and errorText are the toolkit's: failures are observed, and their text follows the policy", async () => {
    @Injectable()
    class VaultService {
      @Tool("Opens the vault")
      open(): string {
        throw new Error("key vault-42 rejected");
      }
    }
    @Module({ providers: [VaultService] })
    class VaultModule {}
    const failures: ToolFailure[] = [];
    const { app, toolkit } = await boot([VaultModule], {
      onError: (failure) => void failures.push(failure),
      errorText: "errorId",
    });
    try {
      const result = await toolkit.execute("open", {});
      expect(result.output).not.toContain("vault-42");
      expect(failures).toHaveLength(1);
      expect((failures[0]!.error as Error).message).toBe("key vault-42 rejected");
      expect(result.metadata?.errorId).toBe(failures[0]!.errorId);
    } finally {
      await app.close();
    }
  });

  it("tools adds tools that are not on providers", async () => {
    const ping = defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" });
    const { app, toolkit } = await boot([CatalogModule], { tools: [ping] });
    try {
      expect(toolkit.tools().map((t) => t.name)).toEqual(["findProduct", "list_products", "ping"]);
      expect((await toolkit.execute("ping", {})).output).toBe("pong");
    } finally {
      await app.close();
    }
  });
});

describe("the injectable toolkit", () => {
  @Injectable()
  class Assistant implements OnModuleInit {
    seenAtInit: string[] = [];
    constructor(@Inject(Toolkit) readonly toolkit: Toolkit) {}
    onModuleInit() {
      this.seenAtInit = this.toolkit.tools().map((t) => t.name);
    }
  }
  @Module({ imports: [CatalogModule], providers: [Assistant] })
  class AssistantModule {}

  it("is the same Toolkit everywhere and already complete in the application's onModuleInit hooks", async () => {
    const { app, toolkit } = await boot([AssistantModule, BillingModule]);
    try {
      const assistant = app.get(Assistant, { strict: false });
      expect(assistant.toolkit).toBe(toolkit);
      expect(assistant.seenAtInit.sort()).toEqual(["createInvoice", "findProduct", "list_products"]);
    } finally {
      await app.close();
    }
  });
});
