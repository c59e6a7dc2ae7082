import { ContextIdFactory, type ContextId, type ModuleRef } from "@nestjs/core";

/**
 * The DI sub-tree each request's tool calls resolve request-scoped providers in, through Nest's
 * public `ContextIdFactory` and `ModuleRef`: a request a request-scoped controller handled
 * already has one (Nest's router attached it, and `getByRequest` returns it every time), and
 * the tools run on the instances that controller got; otherwise one is made for the request,
 * the request is registered as its `REQUEST`, and every call with the same request shares it.
 * Without a request each call gets a sub-tree of its own (and `REQUEST` is undefined).
 */
export class RequestContexts {
  readonly #byRequest = new WeakMap<object, ContextId>();

  contextIdFor(request: unknown, moduleRef: ModuleRef, durable: boolean): ContextId {
    if (typeof request !== "object" || request === null) return ContextIdFactory.create();
    const known = this.#byRequest.get(request);
    if (known !== undefined) return known;
    const contextId = ContextIdFactory.getByRequest(request);
    const attached = ContextIdFactory.getByRequest(request) === contextId;
    if (!attached) {
      // As Nest's router registers a request: durable trees get the strategy's payload.
      moduleRef.registerRequestByContextId(
        durable ? contextId.payload : Object.assign(request, contextId.payload),
        contextId,
      );
    }
    this.#byRequest.set(request, contextId);
    return contextId;
  }
}
