/**
 * A tool call of a Nest provider runs through Nest's pipeline for its class and method, as a
 * GraphQL resolver or a microservice handler does: guards, interceptors, pipes and exception
 * filters (global, class, method), with an execution context of type "toolnexus" whose
 * request is the call's `ctx.state.request` and whose tool call `toolCallOf` reads.
 */
import "reflect-metadata";
import {
  BadRequestException,
  Catch,
  Injectable,
  Module,
  Scope,
  UnauthorizedException,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentMetadata,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from "@nestjs/common";
import { APP_GUARD, APP_INTERCEPTOR, Reflector } from "@nestjs/core";
import { Test, type TestingModule } from "@nestjs/testing";
import { map, type Observable } from "rxjs";
import { Ctx, Tool, Toolkit, type ToolContext } from "toolnexus";
import { TOOLNEXUS_CONTEXT_TYPE, ToolnexusModule, toolCallOf } from "toolnexus/nestjs";
import { RecordingLogger } from "./fixtures";

/** What the enhancers saw, in order. */
const seen: string[] = [];
let bodyRuns = 0;

const Roles = Reflector.createDecorator<string[]>();

/** A global guard as apps write them: roles from the handler's metadata, the user from the request. */
@Injectable()
class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context);
    seen.push(
      `global guard: ${context.getType()} ${call?.tool ?? ""} ${context.getClass().name}.${context.getHandler().name}`,
    );
    const roles = this.reflector.get(Roles, context.getHandler());
    if (roles === undefined) return true;
    const user = context.switchToHttp().getRequest<{ user?: { roles: string[] } } | undefined>()?.user;
    return user !== undefined && roles.some((role) => user.roles.includes(role));
  }
}

@Injectable()
class TimingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    seen.push(`global interceptor: ${context.getType()}`);
    return next.handle();
  }
}

/** Allows a call when its `amount` argument is at most the limit in the user's state. */
@Injectable()
class LimitGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context)!;
    const limit = call.ctx.state?.limit;
    if (typeof limit !== "number") throw new UnauthorizedException("Sign in to refund");
    return (call.args.amount as number) <= limit;
  }
}

class BrokenGuard implements CanActivate {
  canActivate(): boolean {
    throw new Error("guard database down");
  }
}

class Wrap implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ wrapped: value })));
  }
}

/** Interceptors may answer without running the method. */
class Cached implements NestInterceptor {
  intercept(): Observable<unknown> {
    return new (require("rxjs") as typeof import("rxjs")).Observable((subscriber) => {
      subscriber.next("from the cache");
      subscriber.complete();
    });
  }
}

class UpperCasePipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    seen.push(`pipe: ${String(metadata.metatype?.name)} ${JSON.stringify(value)}`);
    return typeof value === "string" ? value.toUpperCase() : value;
  }
}

class RefusingPipe implements PipeTransform {
  transform(value: unknown) {
    if (value === "forbidden-word")
      throw new BadRequestException(["text must not be forbidden-word", "text must be polite"]);
    return value;
  }
}

class OutOfStock extends Error {}

@Catch(OutOfStock)
class OutOfStockFilter implements ExceptionFilter {
  catch(exception: OutOfStock, host: ArgumentsHost) {
    return `Sorry: ${exception.message} (while running ${toolCallOf(host)?.tool})`;
  }
}

@Injectable()
class ShopService {
  @Tool("Refund an order")
  @Roles(["support"])
  @UseGuards(LimitGuard)
  refund(orderId: string, amount: number) {
    bodyRuns++;
    return `refunded ${amount} on ${orderId}`;
  }

  @Tool("Read the audit log")
  @UseGuards(BrokenGuard)
  auditLog() {
    bodyRuns++;
    return "log";
  }

  @Tool("Look up stock")
  @UseInterceptors(Wrap)
  stock(sku: string) {
    return { sku, count: 3 };
  }

  @Tool("Popular products")
  @UseInterceptors(Cached)
  popular() {
    bodyRuns++;
    return "computed";
  }

  @Tool("Shout a text")
  @UsePipes(UpperCasePipe)
  shout(text: string, @Ctx() ctx: ToolContext) {
    return `${text} (${typeof ctx.signal})`;
  }

  @Tool("Post a comment")
  @UsePipes(RefusingPipe)
  comment(text: string) {
    bodyRuns++;
    return `posted ${text}`;
  }

  @Tool("Reserve a product")
  @UseFilters(OutOfStockFilter)
  reserve(sku: string) {
    throw new OutOfStock(`${sku} is out of stock`);
  }

  @Tool("Cancel an order")
  cancel(orderId: string) {
    if (orderId === "other-users") throw new UnauthorizedException("That order belongs to someone else");
    if (orderId === "bad") throw new BadRequestException("orderId must name an open order");
    throw new Error("cancellation service unreachable");
  }
}

/** Request-scoped: its guard runs on the instance made for the call's request. */
@Injectable({ scope: Scope.REQUEST })
@UseGuards(LimitGuard)
class ScopedRefunds {
  @Tool("Refund within the user's limit")
  scopedRefund(amount: number) {
    return `scoped refund ${amount}`;
  }
}

@Module({ providers: [ShopService, ScopedRefunds] })
class ShopModule {}

describe("tool calls through Nest's pipeline", () => {
  let moduleRef: TestingModule;
  let toolkit: Toolkit;
  const logger = new RecordingLogger();
  const support = { user: { roles: ["support"] } };

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot(), ShopModule],
      providers: [
        { provide: APP_GUARD, useClass: RolesGuard },
        { provide: APP_INTERCEPTOR, useClass: TimingInterceptor },
      ],
    })
      .setLogger(logger)
      .compile();
    await moduleRef.init();
    toolkit = moduleRef.get(Toolkit);
  });
  afterAll(() => moduleRef.close());
  beforeEach(() => {
    seen.length = 0;
    bodyRuns = 0;
  });

  it("runs global guards and interceptors with an execution context of type toolnexus", async () => {
    const result = await toolkit.execute("stock", { sku: "TEA-01" });
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual(["global guard: toolnexus stock ShopService.stock", "global interceptor: toolnexus"]);
    expect(TOOLNEXUS_CONTEXT_TYPE).toBe("toolnexus");
  });

  it("lets a guard read the tool call (name, arguments, ctx) and the request from the context", async () => {
    const allowed = await toolkit.execute(
      "refund",
      { orderId: "o-1", amount: 20 },
      { state: { limit: 50, request: support } },
    );
    expect(allowed).toMatchObject({ output: "refunded 20 on o-1" });
    const overLimit = await toolkit.execute(
      "refund",
      { orderId: "o-1", amount: 80 },
      { state: { limit: 50, request: support } },
    );
    expect(overLimit).toMatchObject({ isError: true, metadata: { error: "forbidden", tool: "refund" } });
    expect(overLimit.output).toBe(
      'The call to tool "refund" is not allowed for this user. Do not retry it; tell the user.',
    );
    expect(bodyRuns).toBe(1);
  });

  it("applies handler metadata (a global roles guard reads @Roles on the tool method)", async () => {
    const noRole = await toolkit.execute(
      "refund",
      { orderId: "o-1", amount: 1 },
      { state: { limit: 50, request: { user: { roles: ["sales"] } } } },
    );
    expect(noRole.metadata?.error).toBe("forbidden");
    const noRequest = await toolkit.execute("refund", { orderId: "o-1", amount: 1 }, { state: { limit: 50 } });
    expect(noRequest.metadata?.error).toBe("forbidden");
    expect(bodyRuns).toBe(0);
  });

  it("gives the model the message of an HttpException a guard throws, and hides other errors", async () => {
    const unauthorized = await toolkit.execute(
      "refund",
      { orderId: "o-1", amount: 1 },
      { state: { request: support } },
    );
    expect(unauthorized).toMatchObject({ isError: true, metadata: { error: "forbidden" } });
    expect(unauthorized.output).toContain("(Sign in to refund)");
    const broken = await toolkit.execute("auditLog", {});
    expect(broken).toMatchObject({ isError: true, metadata: { error: "forbidden" } });
    expect(broken.output).not.toContain("database");
    expect(bodyRuns).toBe(0);
  });

  it("tells onError what a refusing guard threw", async () => {
    const failures: unknown[] = [];
    const reporting = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot({ onError: (failure) => void failures.push(failure.error) }), ShopModule],
    })
      .setLogger(new RecordingLogger())
      .compile();
    await reporting.init();
    await reporting.get(Toolkit).execute("auditLog", {});
    await reporting.close();
    expect(failures).toEqual([expect.objectContaining({ message: "guard database down" })]);
  });

  it("lets an interceptor change the result, or answer without running the method", async () => {
    expect(await toolkit.execute("stock", { sku: "TEA-01" })).toMatchObject({
      output: JSON.stringify({ wrapped: { sku: "TEA-01", count: 3 } }),
    });
    expect(await toolkit.execute("popular", {})).toMatchObject({ output: "from the cache" });
    expect(bodyRuns).toBe(0);
  });

  it("runs pipes on each argument after toolnexus validated it, and calls the method with what they return", async () => {
    expect(await toolkit.execute("shout", { text: "hello" })).toMatchObject({ output: "HELLO (object)" });
    expect(seen).toContain('pipe: String "hello"');
    const invalid = await toolkit.execute("shout", { text: 3 });
    expect(invalid.metadata?.error).toBe("invalid_arguments");
    expect(seen.filter((line) => line.startsWith("pipe"))).toHaveLength(2);
  });

  it("answers a pipe's BadRequestException as invalid arguments, listing its messages", async () => {
    const refused = await toolkit.execute("comment", { text: "forbidden-word" });
    expect(refused).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(refused.output).toBe(
      'Invalid arguments for tool "comment":\n- text must not be forbidden-word\n- text must be polite',
    );
    expect(bodyRuns).toBe(0);
  });

  it("answers with what an exception filter returns", async () => {
    expect(await toolkit.execute("reserve", { sku: "TEA-02" })).toMatchObject({
      output: "Sorry: TEA-02 is out of stock (while running reserve)",
    });
  });

  it("maps HttpExceptions the method throws to the kinds they mean, and other throws to execution_failed", async () => {
    const cancel = (orderId: string) => toolkit.execute("cancel", { orderId });
    expect(await cancel("other-users")).toMatchObject({ isError: true, metadata: { error: "forbidden" } });
    expect((await cancel("other-users")).output).toContain("That order belongs to someone else");
    expect(await cancel("bad")).toMatchObject({
      isError: true,
      output: 'Invalid arguments for tool "cancel": orderId must name an open order',
      metadata: { error: "invalid_arguments" },
    });
    expect(await cancel("o-1")).toMatchObject({
      output: "cancellation service unreachable",
      isError: true,
      metadata: { error: "execution_failed" },
    });
  });

  it("runs a request-scoped provider's class guards for each call", async () => {
    expect(
      await toolkit.execute("scopedRefund", { amount: 5 }, { state: { limit: 10, request: support } }),
    ).toMatchObject({ output: "scoped refund 5" });
    expect(
      (await toolkit.execute("scopedRefund", { amount: 50 }, { state: { limit: 10, request: support } })).metadata
        ?.error,
    ).toBe("forbidden");
  });

  it("applies the pipeline to every provider format: run* replies carry the refusal", async () => {
    const reply = await toolkit.runAnthropic(
      { content: [{ type: "tool_use", id: "toolu_1", name: "refund", input: { orderId: "o-1", amount: 80 } }] },
      { state: { limit: 50, request: support } },
    );
    expect(reply!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: true });
  });
});
