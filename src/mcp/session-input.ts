import { randomUUID } from "node:crypto";
import { CreateMessageResultWithToolsSchema, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { InputUnavailableError } from "../core/errors";
import {
  assertElicitRequest,
  assertSampleRequest,
  samplingParams,
  type ElicitAnswer,
  type ElicitRequest,
  type SampleRequest,
  type SampleResult,
} from "../core/input-requests";
import { MAX_TIMER_MS } from "../core/timers";
import { assertAnswerable, type AnsweringCapabilities } from "./client-capabilities";
import { elicitAnswer, sampleResult } from "./input-round";

/** How a 2025-era request handler sends a request to the client, related to the call (the SDK's `extra.sendRequest`). */
type SendRequest = (
  request: { method: string; params: Record<string, unknown> },
  schema: typeof ElicitResultSchema | typeof CreateMessageResultWithToolsSchema,
  options?: { signal?: AbortSignal; timeout?: number },
) => Promise<unknown>;

/** Why a 2025-era request cannot ask the client anything. */
const STATELESS =
  "this request came in the 2025 protocol over HTTP without a session this server instance opened (no Mcp-Session-Id " +
  "of an initialize it answered), so it cannot send the client a request and read its answer. Behind a load balancer, " +
  "send a session's requests to the instance that initialized it (sticky sessions), or use a client of revision 2026-07-28.";

/**
 * `ctx.elicit` / `ctx.sample` of a 2025-era call: `elicitation/create` and
 * `sampling/createMessage` requests to the client on its session (stdio, or HTTP on the
 * instance that answered its `initialize`), once it declared the capability there. Without
 * such a session the tool gets `InputUnavailableError` saying so.
 */
export function sessionInput(
  declared: AnsweringCapabilities | undefined,
  send: SendRequest,
  signal: AbortSignal,
): {
  elicit: (request: ElicitRequest) => Promise<ElicitAnswer>;
  sample: (request: SampleRequest) => Promise<SampleResult>;
} {
  // A person may take their time: the question waits as long as the call does, not the SDK's 60 s for requests.
  const asking = { signal, timeout: MAX_TIMER_MS };
  const capabilities = () => {
    if (declared === undefined) throw new InputUnavailableError(`Nobody can be asked: ${STATELESS}`);
    return declared;
  };
  return {
    elicit: async (request) => {
      assertElicitRequest(request);
      assertAnswerable(capabilities(), { kind: "elicit", request });
      const params =
        "url" in request
          ? { mode: "url", message: request.message, url: request.url, elicitationId: randomUUID() }
          : { mode: "form", message: request.message, requestedSchema: request.schema };
      return elicitAnswer(await send({ method: "elicitation/create", params }, ElicitResultSchema, asking), request);
    },
    sample: async (request) => {
      assertSampleRequest(request);
      const params = samplingParams(request);
      assertAnswerable(capabilities(), { kind: "sample", params });
      return sampleResult(
        await send({ method: "sampling/createMessage", params }, CreateMessageResultWithToolsSchema, asking),
      );
    },
  };
}
