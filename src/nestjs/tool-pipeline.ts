import { HttpException } from "@nestjs/common";
import type { ContextId, ExternalContextCreator, ParamsFactory } from "@nestjs/core";
import { isObservable, lastValueFrom } from "rxjs";
import { forbiddenResult } from "../control/approval";
import type { MethodCall, MethodInvoker } from "../runtime/decorated";
import { invalidArguments } from "../runtime/run-contract";
import { carryingThrown, errorResult } from "../runtime/result";
import type { ToolContext, ToolResult } from "../core/types";
import { TOOLNEXUS_CONTEXT_TYPE, type ToolCallInfo } from "./execution-context";
import { REQUEST_STATE_KEY } from "./options";

/** What one call of a provider's tool runs on. */
export interface CallTarget {
  instance: object;
  /** The DI sub-tree the instance belongs to (request-scoped providers); static otherwise. */
  contextId?: ContextId;
  /** The provider's id, so that its transient and request-scoped enhancers are its own. */
  inquirerId?: string;
}

/** Where the method's positional arguments come from (see `ToolPipeline#handlerKey`). */
const PARAMETERS_METADATA = "toolnexus:nestjs:tool-parameters";

/** The text of the `ForbiddenException` Nest throws when a guard answers false. */
const GUARD_REFUSED = "Forbidden resource";

const ENHANCERS = { guards: true, interceptors: true, filters: true };

/** The third host argument of a tool call's execution context (see `toolCallOf`). */
class PipelineCall implements ToolCallInfo {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ctx: ToolContext;
  readonly #positional: unknown[];
  #reachedHandler = false;

  constructor(call: MethodCall) {
    this.tool = call.tool;
    this.args = call.args;
    this.ctx = call.ctx;
    this.#positional = call.positional;
  }

  /** Whether the guards let the call through and interceptors handed it on: its arguments were read. */
  get reachedHandler(): boolean {
    return this.#reachedHandler;
  }

  argumentAt(index: number): unknown {
    this.#reachedHandler = true;
    return this.#positional[index];
  }
}

const argumentsFromCall: ParamsFactory = {
  exchangeKeyForValue: (index: number, _data: unknown, hostArgs: unknown[]) =>
    (hostArgs[2] as PipelineCall).argumentAt(index),
};

/**
 * Runs tool calls through Nest's pipeline for the method's class, as Nest's microservices and
 * GraphQL packages run their handlers (`ExternalContextCreator`, context type `"toolnexus"`):
 * guards (global, class, method), interceptors, pipes on each argument, then the method, with
 * exception filters around it all. A refusal before the method (a guard answering false or
 * throwing, an interceptor throwing before `next.handle()`) is a `forbidden` result; an
 * `HttpException` of status 400/422 from a pipe or the method is `invalid_arguments`, 401/403 is
 * `forbidden`; anything else thrown is the tool's failure, as outside Nest.
 */
export class ToolPipeline {
  readonly #classIds = new WeakMap<Function, number>();
  #classCount = 0;

  constructor(private readonly contextCreator: ExternalContextCreator) {}

  /** An invoker for a provider whose instance is the same for every call (singleton, transient). */
  forInstance(instance: object): MethodInvoker {
    const handlers = new Map<string, (...hostArgs: unknown[]) => Promise<unknown>>();
    return (call) => {
      let handler = handlers.get(call.methodName);
      if (handler === undefined) {
        handler = this.#handler({ instance }, call);
        handlers.set(call.methodName, handler);
      }
      return run(handler, call);
    };
  }

  /** An invoker for a provider whose instance is resolved per call (request scope). */
  forEachCall(resolve: (ctx: ToolContext) => Promise<CallTarget>): MethodInvoker {
    return async (call) => run(this.#handler(await resolve(call.ctx), call), call);
  }

  #handler(
    { instance, contextId, inquirerId }: CallTarget,
    call: MethodCall,
  ): (...hostArgs: unknown[]) => Promise<unknown> {
    const key = this.#handlerKey(instance, call);
    return this.contextCreator.create(
      instance,
      call.method,
      key,
      PARAMETERS_METADATA,
      argumentsFromCall,
      contextId,
      inquirerId,
      ENHANCERS,
      TOOLNEXUS_CONTEXT_TYPE,
    );
  }

  /**
   * The name the method's handler is known by to Nest's context creator, which keeps what it
   * read per class name and method name, and is shared with Nest's GraphQL package: a name of
   * toolnexus's own, per class, keeps a method that is also a resolver (or a class of the same
   * name elsewhere) from sharing an entry. Under that name, the class gets the method's
   * parameter metadata in Nest's format (`"<type>:<index>"`, one entry per position whose type
   * is the position, so that Nest runs the pipes on each argument and calls the method with
   * what they return) and its parameter types (the pipes' `metatype`). A method without
   * parameters gets one position all the same (Nest then passes it one `undefined`): reading it
   * is how a call is known to have passed the guards.
   */
  #handlerKey(instance: object, call: MethodCall): string {
    const prototype = Object.getPrototypeOf(instance) as { constructor: Function };
    const host = prototype.constructor;
    let id = this.#classIds.get(host);
    if (id === undefined) {
      id = ++this.#classCount;
      this.#classIds.set(host, id);
    }
    const key = `toolnexus:${id}:${call.methodName}`;
    if (!Reflect.hasOwnMetadata(PARAMETERS_METADATA, host, key)) {
      const positions = Math.max(call.positional.length, 1);
      const entries = Array.from({ length: positions }, (_, index) => [
        `${index}:${index}`,
        { index, data: undefined, pipes: [] },
      ]);
      Reflect.defineMetadata(PARAMETERS_METADATA, Object.fromEntries(entries), host, key);
      const types: unknown = Reflect.getMetadata("design:paramtypes", prototype, call.methodName);
      if (Array.isArray(types)) Reflect.defineMetadata("design:paramtypes", types, host.prototype as object, key);
    }
    return key;
  }
}

async function run(handler: (...hostArgs: unknown[]) => Promise<unknown>, call: MethodCall): Promise<unknown> {
  const pipelineCall = new PipelineCall(call);
  const request = call.ctx.state?.[REQUEST_STATE_KEY];
  let outcome: unknown;
  try {
    outcome = await handler(request, undefined, pipelineCall);
    // What an exception filter returns is the answer; RPC-style filters return an Observable.
    if (isObservable(outcome)) outcome = await lastValueFrom(outcome);
  } catch (thrown) {
    return failure(pipelineCall, thrown);
  }
  // A filter that answers with an error (as GraphQL filters do) answers with a failure.
  return outcome instanceof Error ? failure(pipelineCall, outcome) : outcome;
}

function failure(call: PipelineCall, thrown: unknown): ToolResult {
  if (!call.reachedHandler) return refused(call.tool, thrown);
  if (thrown instanceof HttpException) {
    const status = thrown.getStatus();
    if (status === 400 || status === 422)
      return carryingThrown(invalidArguments(call.tool, messagesOf(thrown)), thrown);
    if (status === 401 || status === 403) return refused(call.tool, thrown);
  }
  throw thrown;
}

/** A `forbidden` result: with the exception's message when Nest's exception was made to be read by a client. */
function refused(tool: string, thrown: unknown): ToolResult {
  if (!(thrown instanceof HttpException)) return forbiddenResult(tool, thrown);
  const reason = thrown.message === GUARD_REFUSED ? "" : ` (${messagesOf(thrown).join("; ")})`;
  return carryingThrown(
    errorResult(
      "forbidden",
      `The call to tool "${tool}" is not allowed for this user${reason}. Do not retry it; tell the user.`,
      { tool },
    ),
    thrown,
  );
}

/** The messages of an HttpException: `ValidationPipe` and others give a list in `response.message`. */
function messagesOf(exception: HttpException): string[] {
  const response = exception.getResponse();
  const message =
    typeof response === "object" && response !== null ? (response as { message?: unknown }).message : undefined;
  if (Array.isArray(message) && message.every((item) => typeof item === "string") && message.length > 0) return message;
  return [typeof message === "string" ? message : exception.message];
}
