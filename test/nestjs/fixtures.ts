/**
 * A small application for the NestJS tests: three feature modules (catalog, billing, cart)
 * whose providers carry @Tool methods, with injected dependencies, an exported provider used
 * across modules, request-scoped and transient providers.
 */
import "reflect-metadata";
import { Inject, Injectable, Module, Scope, type LoggerService } from "@nestjs/common";
import { REQUEST } from "@nestjs/core";
import { Ctx, Param, Tool, type ToolContext } from "toolnexus";

// ---- catalog: a repository injected into a service with tools; the service is exported ----

@Injectable()
export class ProductRepository {
  readonly products = new Map<string, { sku: string; name: string; price: number }>([
    ["TEA-01", { sku: "TEA-01", name: "Assam tea", price: 12 }],
    ["TEA-02", { sku: "TEA-02", name: "Darjeeling tea", price: 18 }],
  ]);
}

@Injectable()
export class CatalogService {
  constructor(private readonly repository: ProductRepository) {}

  @Tool("Find a product by SKU")
  findProduct(@Param({ description: "The SKU, e.g. TEA-01" }) sku: string) {
    const product = this.repository.products.get(sku);
    if (product === undefined) throw new Error(`No product with SKU ${sku}`);
    return product;
  }

  @Tool({ name: "list_products", description: "Every product in the catalogue" })
  list() {
    return [...this.repository.products.keys()];
  }

  /** Not a tool. */
  priceOf(sku: string): number {
    return this.repository.products.get(sku)?.price ?? 0;
  }
}

@Module({ providers: [ProductRepository, CatalogService], exports: [CatalogService] })
export class CatalogModule {}

// ---- billing: uses the catalog's exported service through DI ----

@Injectable()
export class BillingService {
  readonly invoices: Array<{ sku: string; quantity: number; total: number; by: unknown }> = [];

  constructor(private readonly catalog: CatalogService) {}

  @Tool("Create an invoice for a quantity of one product")
  createInvoice(sku: string, quantity: number, @Ctx() ctx: ToolContext) {
    const total = this.catalog.priceOf(sku) * quantity;
    this.invoices.push({ sku, quantity, total, by: ctx.state?.user });
    return { invoice: this.invoices.length, total, by: ctx.state?.user ?? null };
  }
}

@Module({ imports: [CatalogModule], providers: [BillingService] })
export class BillingModule {}

// ---- cart: request-scoped, directly and through a dependency; and a transient provider ----

let cartInstances = 0;
export const cartInstanceCount = () => cartInstances;

@Injectable({ scope: Scope.REQUEST })
export class CartService {
  readonly id = ++cartInstances;
  readonly items: string[] = [];

  constructor(@Inject(REQUEST) private readonly request: { user?: string; headers?: Record<string, unknown> }) {}

  @Tool("Add a product to the current user's cart")
  addToCart(sku: string) {
    this.items.push(sku);
    return { cart: this.id, user: this.request?.user ?? null, items: this.items };
  }
}

/** Default scope, but it depends on a request-scoped provider, so Nest makes it request-scoped too. */
@Injectable()
export class CheckoutService {
  constructor(private readonly cart: CartService) {}

  @Tool("Check out the current user's cart")
  checkout() {
    return { cart: this.cart.id, items: this.cart.items.length };
  }
}

let counterInstances = 0;

@Injectable({ scope: Scope.TRANSIENT })
export class CounterService {
  readonly id = ++counterInstances;
  private count = 0;

  @Tool("Count one more")
  increment() {
    return { instance: this.id, count: ++this.count };
  }
}

@Module({ providers: [CartService, CheckoutService, CounterService], exports: [CartService] })
export class CartModule {}

// ---- a class nobody provides ----

export class ForgottenService {
  @Tool("A tool whose class is in no module")
  forgotten() {
    return "never discovered";
  }
}

/** Nest log lines, recorded (set with `Test.createTestingModule(...).setLogger(logger)`). */
export class RecordingLogger implements LoggerService {
  readonly lines: Array<{ level: string; message: string; context?: string }> = [];
  log(message: unknown, context?: string) {
    this.lines.push({ level: "log", message: String(message), context });
  }
  warn(message: unknown, context?: string) {
    this.lines.push({ level: "warn", message: String(message), context });
  }
  error(message: unknown, context?: string) {
    this.lines.push({ level: "error", message: String(message), context });
  }
  debug(message: unknown, context?: string) {
    this.lines.push({ level: "debug", message: String(message), context });
  }
  verbose(message: unknown, context?: string) {
    this.lines.push({ level: "verbose", message: String(message), context });
  }
  /** The messages of one level logged under the "Toolnexus" context. */
  toolnexus(level: string): string[] {
    return this.lines
      .filter((line) => line.level === level && line.context === "Toolnexus")
      .map((line) => line.message);
  }
}
