import "reflect-metadata";
import { Injectable, Module, type INestApplicationContext } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Tool, Toolkit, type ToolCall } from "toolnexus";
import { ToolnexusModule } from "toolnexus/nestjs";

// ToolnexusModule.forRoot takes the toolkit's control options and hands them to the toolkit it
// provides: approval, visibility, authorization, middleware.

@Injectable()
class PaymentsService {
  @Tool({ description: "Refund a payment", needsApproval: true })
  refund(paymentId: string) {
    return `refunded ${paymentId}`;
  }

  @Tool({ description: "Look up a payment" })
  lookup(paymentId: string) {
    return `payment ${paymentId}`;
  }

  @Tool({ description: "Payments report, for admins", visible: (ctx) => ctx.state?.role === "admin" })
  report() {
    return "report";
  }
}

@Module({ providers: [PaymentsService] })
class PaymentsModule {}

const seen: string[] = [];
let app: INestApplicationContext;
let toolkit: Toolkit;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ToolnexusModule.forRoot({
        approve: ({ args }) => ({ approved: args.paymentId !== "p-big", reason: "over the limit" }),
        authorize: (ctx) => ctx.state?.user !== undefined,
        middleware: [
          async (call: ToolCall, next) => {
            seen.push(`before ${call.tool.name}`);
            const result = await next();
            seen.push(`after ${call.tool.name}`);
            return result;
          },
        ],
      }),
      PaymentsModule,
    ],
  }).compile();
  app = await moduleRef.init();
  toolkit = app.get(Toolkit);
});

afterAll(() => app.close());

const user = { state: { user: "ada" } };

describe("ToolnexusModule.forRoot with control options", () => {
  it("asks approve: an approved call runs, a denied one says why", async () => {
    expect(await toolkit.execute("refund", { paymentId: "p-1" }, user)).toMatchObject({
      output: "refunded p-1",
      isError: false,
    });
    const denied = await toolkit.execute("refund", { paymentId: "p-big" }, user);
    expect(denied).toMatchObject({ isError: true, metadata: { error: "denied" } });
    expect(denied.output).toContain("over the limit");
  });

  it("authorizes every call: without a user, forbidden", async () => {
    expect(await toolkit.execute("lookup", { paymentId: "p-1" }, {})).toMatchObject({
      isError: true,
      metadata: { error: "forbidden" },
    });
  });

  it("runs the middleware around the calls that pass", async () => {
    seen.length = 0;
    await toolkit.execute("lookup", { paymentId: "p-2" }, user);
    expect(seen).toEqual(["before lookup", "after lookup"]);
  });

  it("hides a tool from a ctx it is not visible to, in exports and calls", async () => {
    expect(
      toolkit.toOpenAI({ ctx: user }).map((tool) => (tool.type === "function" ? tool.function.name : tool.type)),
    ).toEqual(["refund", "lookup"]);
    expect(
      toolkit
        .toOpenAI({ ctx: { state: { user: "root", role: "admin" } } })
        .map((tool) => (tool.type === "function" ? tool.function.name : tool.type)),
    ).toEqual(["refund", "lookup", "report"]);
    const hidden = await toolkit.execute("report", {}, user);
    expect(hidden).toMatchObject({ isError: true, metadata: { error: "unknown_tool" } });
    expect(hidden.output).toMatch(/Available tools: refund, lookup\.$/);
  });
});
