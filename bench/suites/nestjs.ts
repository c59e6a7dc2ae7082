/**
 * NestJS: one call of a provider's tool through the toolkit ToolnexusModule injects, where
 * every call runs through Nest's pipeline for its method (ExternalContextCreator, as Nest's
 * GraphQL and microservices packages run their handlers), against
 *  - the same tool in a plain `new Toolkit([instance])` (toolnexus outside Nest): the cost of
 *    Nest's pipeline for a method with no enhancers;
 *  - with a guard and an interceptor on the method: Nest's own handler for it
 *    (`ExternalContextCreator.create(...)` called with the method's arguments, no toolnexus),
 *    so the row shows what toolnexus adds to what Nest itself costs: validation, the result,
 *    the limits of the call.
 */
import "reflect-metadata";
import {
  Injectable,
  Module,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type NestInterceptor,
} from "@nestjs/common";
import { ExternalContextCreator, NestFactory } from "@nestjs/core";
import type { INestApplicationContext } from "@nestjs/common";
import { Tool, Toolkit } from "../../src";
import { ToolnexusModule } from "../../src/nestjs";
import { CatalogService, VALID_ARGS, searchBody } from "../fixtures";
import { compare, row, settingsFor } from "../harness";
import type { BenchSuite } from "../types";

const SUITE = "nestjs";
const UNIT = "ns/call";

class Allow implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

class PassThrough implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle();
  }
}

@Injectable()
class PlainCatalog extends CatalogService {}

@Injectable()
class GuardedCatalog {
  @Tool("Search the catalogue")
  @UseGuards(Allow)
  @UseInterceptors(PassThrough)
  search(query: string, sort: string, limit: number): string {
    return searchBody(query, sort, limit);
  }
}

async function appWith(provider: Function): Promise<INestApplicationContext> {
  @Module({
    imports: [ToolnexusModule.forRoot({ warnUnregistered: false })],
    providers: [provider as new () => object],
  })
  class BenchModule {}
  return NestFactory.createApplicationContext(BenchModule, { logger: false });
}

export const run: BenchSuite = async (options) => {
  const plainApp = await appWith(PlainCatalog);
  const guardedApp = await appWith(GuardedCatalog);
  try {
    const inNest = plainApp.get(Toolkit);
    const outsideNest = new Toolkit([plainApp.get(PlainCatalog)], { tracing: false });
    const guarded = guardedApp.get(Toolkit);
    const instance = guardedApp.get(GuardedCatalog);
    // Nest's handler for the guarded method alone: what a GraphQL resolver call costs Nest.
    const nestHandler = guardedApp
      .get(ExternalContextCreator)
      .create(
        instance,
        instance.search as (...args: unknown[]) => unknown,
        "search",
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        "toolnexus",
      );
    for (const [name, result] of [
      ["in Nest", await inNest.execute("search", VALID_ARGS)],
      ["guarded", await guarded.execute("search", VALID_ARGS)],
    ] as const) {
      if (result.isError || result.output !== searchBody(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit))
        throw new Error(`nestjs bench: the ${name} call did not answer: ${result.output}`);
    }
    const times = await compare(
      {
        inNest: () => inNest.execute("search", VALID_ARGS),
        outsideNest: () => outsideNest.execute("search", VALID_ARGS),
        guarded: () => guarded.execute("search", VALID_ARGS),
        nestAlone: () => nestHandler(VALID_ARGS.query, VALID_ARGS.sort, VALID_ARGS.limit),
      },
      settingsFor(options),
    );
    return [
      row({
        suite: SUITE,
        case: "ToolnexusModule toolkit, valid args, no enhancers",
        value: times.inNest!,
        baseline: "the same tool in new Toolkit([instance])",
        baselineValue: times.outsideNest!,
        unit: UNIT,
      }),
      row({
        suite: SUITE,
        case: "ToolnexusModule toolkit, valid args, a guard and an interceptor",
        value: times.guarded!,
        baseline: "Nest's own handler for the method (ExternalContextCreator)",
        baselineValue: times.nestAlone!,
        unit: UNIT,
      }),
    ];
  } finally {
    await plainApp.close();
    await guardedApp.close();
  }
};
