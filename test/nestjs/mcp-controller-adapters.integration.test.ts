/**
 * The MCP endpoint of ToolnexusModule is an ordinary Nest controller, on Express and on
 * Fastify alike: the application's global prefix moves it, global middleware and guards run
 * on its HTTP requests before MCP does, and every tool call then runs through Nest's pipeline
 * for its provider method (global and method guards, interceptors, exception filters) with the
 * MCP request as the HTTP request of the call's execution context. Request-scoped providers
 * resolve per MCP request, and a body the adapter's JSON parser refused is answered by Nest
 * without any tool running.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import {
  Catch,
  Inject,
  Injectable,
  Module,
  Scope,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type INestApplication,
  type LoggerService,
  type MiddlewareConsumer,
  type NestInterceptor,
  type NestModule,
  type PipeTransform,
} from "@nestjs/common";
import { APP_GUARD, APP_INTERCEPTOR, REQUEST } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { Test, type TestingModule } from "@nestjs/testing";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { map, type Observable } from "rxjs";
import { Ctx, Tool, type ToolContext } from "toolnexus";
import { toolCallOf, ToolnexusModule, TOOLNEXUS_CONTEXT_TYPE } from "toolnexus/nestjs";
import { connectHttp, INITIALIZE, jsonRpc, rawRequest, textOf } from "../mcp/support";

// ---- users and what the application records (one Records per application) ----

interface User {
  name: string;
  role: "admin" | "member";
}

const USERS: Record<string, User> = {
  "token-ada": { name: "ada", role: "admin" },
  "token-bob": { name: "bob", role: "member" },
};
const ADA = { authorization: "Bearer token-ada" };
const BOB = { authorization: "Bearer token-bob" };

/** What the middleware, guards, interceptors and tool bodies of one application saw. */
class Records {
  /** The URL of each request the global middleware ran for. */
  readonly middleware: string[] = [];
  /** Each tool call the global guard was asked about. */
  readonly guardedCalls: Array<{ type: string; tool: string; args: unknown }> = [];
  /** `context.getType()` of each interception, with the URL (HTTP) or the tool name (tool call). */
  readonly intercepted: Array<{ type: string; what: string }> = [];
  /** Every tool body that ran, by tool name. */
  readonly ran: string[] = [];
}

const RECORDS = Symbol("records");

/** Header the global middleware puts on every response it sees. */
const MIDDLEWARE_HEADER = "x-seen-by-middleware";

interface AppRequest {
  url?: string;
  /** The URL as received (middleware mounted at a path sees `url` relative to it). */
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  user?: User;
}

/** Nest's log lines, by level (set with `Test.createTestingModule(...).setLogger(logger)`). */
class LevelLogger implements LoggerService {
  readonly lines: Array<{ level: string; message: string; context?: string }> = [];
  log = this.#record("log");
  warn = this.#record("warn");
  error = this.#record("error");
  debug = this.#record("debug");
  verbose = this.#record("verbose");
  #record(level: string) {
    return (message: unknown, context?: string) => void this.lines.push({ level, message: String(message), context });
  }
}

// ---- global enhancers ----

/** Authenticates HTTP requests by bearer token; lets a tool call through only with a user in its state. */
@Injectable()
class AuthGuard implements CanActivate {
  constructor(@Inject(RECORDS) private readonly records: Records) {}

  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context);
    if (call !== undefined) {
      this.records.guardedCalls.push({ type: context.getType(), tool: call.tool, args: call.args });
      return call.ctx.state?.user !== undefined;
    }
    if (context.getType() !== "http") return true;
    const request = context.switchToHttp().getRequest<AppRequest>();
    const token = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
    request.user = USERS[token];
    return request.user !== undefined;
  }
}

@Injectable()
class LoggingInterceptor implements NestInterceptor {
  constructor(@Inject(RECORDS) private readonly records: Records) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = toolCallOf(context);
    const what = call !== undefined ? call.tool : String(context.switchToHttp().getRequest<AppRequest>().url);
    this.records.intercepted.push({ type: context.getType(), what });
    return next.handle();
  }
}

// ---- enhancers of single tools ----

/** Reads the user the global guard put on the MCP request. */
@Injectable()
class AdminOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest<AppRequest>().user?.role === "admin";
  }
}

@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((result: unknown) => ({ wrapped: result })));
  }
}

class OutOfStockError extends Error {
  constructor(readonly sku: string) {
    super(`${sku} is out of stock`);
  }
}

/** Normalizes a SKU argument before the method sees it. */
class SkuPipe implements PipeTransform {
  transform(value: unknown): unknown {
    return typeof value === "string" ? value.trim().toUpperCase() : value;
  }
}

@Catch(OutOfStockError)
class OutOfStockFilter implements ExceptionFilter {
  catch(error: OutOfStockError): string {
    return `Sorry, ${error.sku} is sold out; try again next week.`;
  }
}

// ---- providers with tools ----

@Injectable()
class ShopTools {
  constructor(@Inject(RECORDS) private readonly records: Records) {}

  @Tool("The user the call is made for")
  me(@Ctx() ctx: ToolContext) {
    this.records.ran.push("me");
    return ctx.state?.user;
  }

  @Tool("Empty the shop (administrators only)")
  @UseGuards(AdminOnlyGuard)
  purge() {
    this.records.ran.push("purge");
    return "purged";
  }

  @Tool("Greet someone")
  @UseInterceptors(WrapInterceptor)
  greet(name: string) {
    this.records.ran.push("greet");
    return `Hello, ${name}`;
  }

  @Tool("Check a SKU")
  @UsePipes(SkuPipe)
  checkSku(sku: string) {
    this.records.ran.push("checkSku");
    return `checked ${sku}`;
  }

  @Tool("Reserve a product")
  @UseFilters(OutOfStockFilter)
  reserve(sku: string) {
    this.records.ran.push("reserve");
    throw new OutOfStockError(sku);
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestInfoTools {
  constructor(
    @Inject(REQUEST) private readonly request: AppRequest,
    @Inject(RECORDS) private readonly records: Records,
  ) {}

  @Tool("What the MCP request carried")
  requestInfo() {
    this.records.ran.push("requestInfo");
    return { user: this.request.user?.name ?? null, client: this.request.headers["x-client"] ?? null };
  }
}

// ---- the application ----

function appModule(records: Records) {
  @Module({
    imports: [ToolnexusModule.forRoot({ mcp: { path: "/mcp" } })],
    providers: [
      { provide: RECORDS, useValue: records },
      { provide: APP_GUARD, useClass: AuthGuard },
      { provide: APP_INTERCEPTOR, useClass: LoggingInterceptor },
      ShopTools,
      RequestInfoTools,
    ],
  })
  class AppModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      consumer
        .apply((request: AppRequest, response: { setHeader(name: string, value: string): void }, next: () => void) => {
          records.middleware.push(String(request.originalUrl ?? request.url));
          response.setHeader(MIDDLEWARE_HEADER, "yes");
          next();
        })
        .forRoutes("{*splat}");
    }
  }
  return AppModule;
}

const ADAPTERS: Array<[string, (moduleRef: TestingModule) => INestApplication]> = [
  ["Express", (moduleRef) => moduleRef.createNestApplication()],
  ["Fastify", (moduleRef) => moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter())],
];

describe.each(ADAPTERS)("the MCP controller on the %s adapter", (_adapter, createApp) => {
  const records = new Records();
  let logger: LevelLogger;
  let app: INestApplication;
  let base: string;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    logger = new LevelLogger();
    const moduleRef = await Test.createTestingModule({ imports: [appModule(records)] })
      .setLogger(logger)
      .compile();
    app = createApp(moduleRef);
    app.setGlobalPrefix("api");
    await app.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    url = `${base}/api/mcp`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
  });

  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = await connectHttp(url, headers);
    clients.push(client);
    return client;
  }

  const json = (result: unknown): unknown => JSON.parse(textOf(result));

  it("serves MCP under the global prefix, at /api/mcp and not at /mcp", async () => {
    const client = await connect(ADA);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "checkSku",
      "greet",
      "me",
      "purge",
      "requestInfo",
      "reserve",
    ]);

    const unprefixed = await rawRequest(`${base}/mcp`, { body: INITIALIZE, headers: ADA });
    expect(unprefixed.status).toBe(404);
  });

  it("refuses a request without a known token with 403 from the global guard, before MCP runs", async () => {
    const before = records.ran.length;
    const call = jsonRpc(1, "tools/call", { name: "me", arguments: {} });
    for (const headers of [{}, { authorization: "Bearer token-nobody" }] as Array<Record<string, string>>) {
      const answer = await rawRequest(url, { body: call, headers });
      expect(answer.status).toBe(403);
      expect(answer.messages[0]).toMatchObject({ statusCode: 403 });
      expect(answer.messages[0]).not.toHaveProperty("jsonrpc");
    }
    expect(records.ran.length).toBe(before);
  });

  it("gives the tools the user the global guard authenticated as ctx.state.user", async () => {
    const ada = await connect(ADA);
    const bob = await connect(BOB);
    const asAda = await ada.callTool({ name: "me", arguments: {} });
    expect(asAda.isError).toBe(false);
    expect(json(asAda)).toEqual({ name: "ada", role: "admin" });
    expect(json(await bob.callTool({ name: "me", arguments: {} }))).toEqual({ name: "bob", role: "member" });
  });

  it("asks the global guard about each tool call, as context type toolnexus with the tool's name and arguments", async () => {
    const client = await connect(ADA);
    await client.callTool({ name: "greet", arguments: { name: "Grace" } });
    expect(TOOLNEXUS_CONTEXT_TYPE).toBe("toolnexus");
    expect(records.guardedCalls).toContainEqual({ type: "toolnexus", tool: "greet", args: { name: "Grace" } });
  });

  it("runs the application's global middleware for the MCP requests", async () => {
    const seen = records.middleware.length;
    const answer = await rawRequest(url, { body: INITIALIZE, headers: ADA });
    expect(answer.status).toBe(200);
    expect(answer.headers[MIDDLEWARE_HEADER]).toBe("yes");
    expect(records.middleware.slice(seen)).toEqual([expect.stringMatching(/^\/api\/mcp/)]);
  });

  it("refuses a member the tool whose method guard requires an administrator, without running its body", async () => {
    const bob = await connect(BOB);
    const before = records.ran.filter((tool) => tool === "purge").length;
    const refused = await bob.callTool({ name: "purge", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("is not allowed");
    expect(records.ran.filter((tool) => tool === "purge").length).toBe(before);
  });

  it("runs the tool whose method guard requires an administrator for an administrator", async () => {
    const ada = await connect(ADA);
    const allowed = await ada.callTool({ name: "purge", arguments: {} });
    expect(allowed.isError).toBe(false);
    expect(textOf(allowed)).toBe("purged");
  });

  it("gives the MCP client the result as the method's interceptor changed it", async () => {
    const client = await connect(ADA);
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.isError).toBe(false);
    expect(json(result)).toEqual({ wrapped: "Hello, Ada" });
  });

  it("runs the global interceptor for the MCP HTTP request as http and for the tool call as toolnexus", async () => {
    const client = await connect(ADA);
    const seen = records.intercepted.length;
    await client.callTool({ name: "me", arguments: {} });
    const intercepted = records.intercepted.slice(seen);
    expect(intercepted).toContainEqual({ type: "http", what: expect.stringMatching(/^\/api\/mcp/) });
    expect(intercepted).toContainEqual({ type: "toolnexus", what: "me" });
  });

  it("calls the method with what the method's pipe made of its argument", async () => {
    const client = await connect(ADA);
    expect(textOf(await client.callTool({ name: "checkSku", arguments: { sku: "  tea-01 " } }))).toBe("checked TEA-01");
  });

  it("answers with what the method's exception filter returned, as a successful result", async () => {
    const client = await connect(ADA);
    const result = await client.callTool({ name: "reserve", arguments: { sku: "TEA-01" } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("Sorry, TEA-01 is sold out; try again next week.");
    expect(records.ran).toContain("reserve");
  });

  it("resolves a request-scoped provider per MCP request, with the adapter's request as REQUEST", async () => {
    const ada = await connect({ ...ADA, "x-client": "ada-laptop" });
    const bob = await connect({ ...BOB, "x-client": "bob-phone" });
    expect(json(await ada.callTool({ name: "requestInfo", arguments: {} }))).toEqual({
      user: "ada",
      client: "ada-laptop",
    });
    expect(json(await bob.callTool({ name: "requestInfo", arguments: {} }))).toEqual({
      user: "bob",
      client: "bob-phone",
    });
  });

  it("answers malformed JSON with Nest's 400 without running a tool, and keeps serving MCP", async () => {
    const before = records.ran.length;
    const malformed = '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "me", "argu';
    const answer = await rawRequest(url, { body: malformed, headers: ADA });
    expect(answer.status).toBe(400);
    expect(answer.messages[0]).toMatchObject({ statusCode: 400 });
    expect(records.ran.length).toBe(before);

    const client = await connect(ADA);
    expect(json(await client.callTool({ name: "me", arguments: {} }))).toEqual({ name: "ada", role: "admin" });
  });

  it("logs no error or warning while serving", () => {
    expect(logger.lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
  });
});
