import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from "@nestjs/common";
import { tap, type Observable } from "rxjs";
import { toolCallOf } from "toolnexus/nestjs";

/**
 * Global (APP_INTERCEPTOR): one log line per HTTP request and per tool call, with its time.
 * A tool call is told from a request by its execution context (`toolCallOf`).
 */
@Injectable()
export class LoggingInterceptor implements NestInterceptor {
  private readonly logger = new Logger("Calls");

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = toolCallOf(context);
    const what =
      call !== undefined
        ? `tool ${call.tool}(${JSON.stringify(call.args)})`
        : describeRequest(context.switchToHttp().getRequest());
    const started = performance.now();
    const log = (outcome: string) =>
      this.logger.log(`${what} ${outcome} in ${(performance.now() - started).toFixed(1)} ms`);
    return next.handle().pipe(tap({ next: () => log("answered"), error: () => log("failed") }));
  }
}

function describeRequest(request: { method?: string; url?: string }): string {
  return `${request.method ?? "?"} ${request.url ?? "?"}`;
}
