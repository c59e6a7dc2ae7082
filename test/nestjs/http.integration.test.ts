/**
 * Host data reaching tools through ToolContext.state in a real HTTP application: a guard
 * authenticates the user, a controller passes the user and the request to the toolkit, and a
 * request-scoped provider's tool runs in the same DI sub-tree as the controller.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import {
  Body,
  Controller,
  Injectable,
  Module,
  Post,
  Req,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Toolkit } from "toolnexus";
import { ToolnexusModule } from "toolnexus/nestjs";
import { BillingModule, CartModule, CartService, CatalogModule, RecordingLogger } from "./fixtures";

const USERS: Record<string, { id: string; name: string }> = {
  "token-ada": { id: "u1", name: "ada" },
  "token-bob": { id: "u2", name: "bob" },
};

interface AuthedRequest {
  headers: Record<string, string | undefined>;
  user?: { id: string; name: string };
}

@Injectable()
class AuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    request.user = USERS[(request.headers.authorization ?? "").replace(/^Bearer /, "")];
    return request.user !== undefined;
  }
}

@Controller("tools")
@UseGuards(AuthGuard)
class ToolsController {
  // CartService is request-scoped, so this controller is too: one instance per request.
  constructor(
    private readonly toolkit: Toolkit,
    private readonly cart: CartService,
  ) {}

  @Post("call")
  async call(@Body() body: { name: string; args: Record<string, unknown> }, @Req() request: AuthedRequest) {
    const result = await this.toolkit.execute(body.name, body.args, { state: { user: request.user!.name, request } });
    return { result, controllerCart: this.cart.id };
  }
}

@Module({ imports: [CartModule], controllers: [ToolsController], providers: [AuthGuard] })
class ApiModule {}

describe("a controller passing the authenticated user to tools", () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot(), CatalogModule, BillingModule, ApiModule],
    })
      .setLogger(new RecordingLogger())
      .compile();
    app = moduleRef.createNestApplication();
    await app.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const call = async (token: string, name: string, args: Record<string, unknown>) => {
    const response = await fetch(`${base}/tools/call`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, args }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { result: { output: string; isError: boolean }; controllerCart: number },
    };
  };

  it("the user from the guard reaches the tool as ctx.state.user", async () => {
    const { status, body } = await call("token-ada", "createInvoice", { sku: "TEA-01", quantity: 2 });
    expect(status).toBe(201);
    expect(body.result.isError).toBe(false);
    expect(JSON.parse(body.result.output)).toEqual({ invoice: 1, total: 24, by: "ada" });
    const bob = await call("token-bob", "createInvoice", { sku: "TEA-02", quantity: 1 });
    expect(JSON.parse(bob.body.result.output)).toEqual({ invoice: 2, total: 18, by: "bob" });
  });

  it("a request-scoped tool runs on the same instance the request's controller got, with REQUEST = the HTTP request", async () => {
    const { body } = await call("token-ada", "addToCart", { sku: "TEA-01" });
    const tool = JSON.parse(body.result.output);
    // Same DI sub-tree: the controller's CartService is the one the tool ran on.
    expect(tool.cart).toBe(body.controllerCart);
    // REQUEST is the Express request the guard put the user on.
    expect(tool.user).toEqual({ id: "u1", name: "ada" });
    expect(tool.items).toEqual(["TEA-01"]);

    const next = await call("token-bob", "addToCart", { sku: "TEA-02" });
    const nextTool = JSON.parse(next.body.result.output);
    expect(nextTool.cart).toBe(next.body.controllerCart);
    expect(nextTool.cart).not.toBe(tool.cart);
    expect(nextTool.items).toEqual(["TEA-02"]);
  });

  it("the guard still protects the route", async () => {
    expect((await call("wrong", "createInvoice", { sku: "TEA-01", quantity: 1 })).status).toBe(403);
  });
});
