/**
 * A NestJS provider whose methods are a tool, a resource template and a prompt, served over MCP
 * behind OAuth: ToolnexusModule discovers them, the endpoint at /mcp checks every request's
 * access token against your authorization server (`AUTH_ISSUER`), publishes its
 * protected-resource metadata, and refuses a call that needs a scope the token lacks (403,
 * naming it). main() boots the app on 127.0.0.1 and connects the official MCP client, which
 * finds the authorization server from the 401 and gets its token by the client credentials
 * grant (`CLIENT_ID`, `CLIENT_SECRET` from the environment, never in code).
 */
import "reflect-metadata";
import { Injectable, Module } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ctx, Param, Prompt, ResourceTemplate, Tool, type ToolContext } from "toolnexus";
import type { McpAuthInfo } from "toolnexus/mcp";
import { ToolnexusModule } from "toolnexus/nestjs";

@Injectable()
export class HandbookService {
  @Tool("Searches the handbook")
  search(@Param("query") query: string, @Ctx() ctx: ToolContext) {
    const auth = ctx.state?.auth as McpAuthInfo | undefined;
    return `2 pages mention "${query}" (asked by ${auth?.clientId})`;
  }

  @ResourceTemplate("handbook://pages/{slug}", {
    mimeType: "text/markdown",
    complete: { slug: ["expenses", "travel"] },
  })
  page(@Param("slug") slug: string) {
    return `# ${slug}\nThe ${slug} policy.`;
  }

  @Prompt({ description: "Explains a policy page", scopes: ["handbook:explain"] })
  explain(@Param("slug") slug: string) {
    return `Explain the ${slug} policy in three sentences.`;
  }
}

@Module({ providers: [HandbookService] })
export class HandbookModule {}

/** The app: the handbook, and the MCP endpoint that checks tokens from `issuer` for `resource`. */
function appModule(issuer: string, resource: string) {
  @Module({ imports: [ToolnexusModule.forRoot({ mcp: { path: "/mcp", auth: { issuer, resource } } }), HandbookModule] })
  class AppModule {}
  return AppModule;
}

export interface ExampleResult {
  tools: string[];
  search: unknown;
  page: unknown;
  /** What asking for the prompt without its scope gave. */
  explain: string;
}

export async function main(port: number): Promise<ExampleResult> {
  const issuer = process.env.AUTH_ISSUER;
  if (issuer === undefined) throw new Error("Set AUTH_ISSUER to your authorization server's issuer URL.");
  const resource = `http://127.0.0.1:${port}/mcp`;
  const app = await NestFactory.create(appModule(issuer, resource), { logger: false, abortOnError: false });
  await app.listen(port, "127.0.0.1");
  const client = new Client({ name: "handbook-agent", version: "1.0.0" });
  try {
    const authProvider = new ClientCredentialsProvider({
      clientId: process.env.CLIENT_ID!,
      clientSecret: process.env.CLIENT_SECRET!,
      scope: "handbook:read",
      // The issuer this client trusts: tokens are asked for only from it (no mix-up).
      expectedIssuer: issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const search = (await client.callTool({ name: "search", arguments: { query: "taxi" } })).content;
    const page = (await client.readResource({ uri: "handbook://pages/travel" })).contents;
    const explain = await client.getPrompt({ name: "explain", arguments: { slug: "travel" } }).then(
      () => "allowed",
      (error: Error) => error.message,
    );
    return { tools, search, page, explain };
  } finally {
    await client.close();
    await app.close();
  }
}
