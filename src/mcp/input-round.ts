import {
  elicitRequestProblem,
  sampleRequestProblem,
  samplingParams,
  type ElicitAnswer,
  type ElicitRequest,
  type SampleRequest,
  type SampleResult,
} from "../core/input-requests";
import { compileValidator } from "../runtime/validation";
import { assertAnswerable, type AnsweringCapabilities } from "./client-capabilities";

/** What a call asked the client in one round, by key: MCP's `elicitation/create` or `sampling/createMessage`. */
export type AskedInput =
  { kind: "elicit"; request: ElicitRequest } | { kind: "sample"; params: Record<string, unknown> };

/** What a round keeps for the next one, in the signed `requestState`: every answer so far, and the keys just asked. */
export interface InputRoundState {
  answers: Record<string, unknown>;
  asked: string[];
}

/** Thrown inside the tool by `ctx.elicit` / `ctx.sample` whose answer is not in yet: the call stops here this round. */
export class InputPending extends Error {
  override readonly name = "InputPending";
  constructor() {
    super("Waiting for the client's answer: this call is asked again with it.");
  }
}

/**
 * One round of a call that may ask the client (MCP 2026-07-28 multi-round-trip), for the
 * re-run model: the tool runs from the start every round; its n-th `ctx.elicit` / `ctx.sample`
 * gets the n-th answer when an earlier round collected it. The first question without an answer
 * (and any asked beside it) is recorded and stops the call (`InputPending`); the server answers
 * `input_required` with the questions and this round's state, and the client calls again with
 * the answers. So a tool asks before it acts, or makes what it does before asking safe to repeat.
 */
export class InputRound {
  #asked = 0;
  readonly #answers: Record<string, unknown>;
  /** The questions this round could not answer, by key. */
  readonly pending = new Map<string, AskedInput>();

  /** `previous`: the verified state of the last round; `responses`: the client's answers to its questions. */
  constructor(
    previous: InputRoundState | undefined,
    responses: Record<string, unknown> | undefined,
    private readonly capabilities: AnsweringCapabilities | undefined,
    private readonly onPending: () => void,
  ) {
    const answers: Record<string, unknown> = { ...previous?.answers };
    // Only answers to what was asked count: a client cannot answer a question before it is put.
    for (const key of previous?.asked ?? [])
      if (responses !== undefined && Object.prototype.hasOwnProperty.call(responses, key))
        answers[key] = responses[key];
    this.#answers = answers;
  }

  /** The state for the next round: every answer so far, and the keys asked now. */
  next(): InputRoundState {
    return { answers: this.#answers, asked: [...this.pending.keys()] };
  }

  readonly elicit = async (request: ElicitRequest): Promise<ElicitAnswer> => {
    const problem = elicitRequestProblem(request);
    if (problem !== undefined) throw new TypeError(problem);
    const key = String(this.#asked++);
    if (key in this.#answers) return elicitAnswer(this.#answers[key], request);
    return this.#wait(key, { kind: "elicit", request });
  };

  readonly sample = async (request: SampleRequest): Promise<SampleResult> => {
    const problem = sampleRequestProblem(request);
    if (problem !== undefined) throw new TypeError(problem);
    const key = String(this.#asked++);
    if (key in this.#answers) return sampleResult(this.#answers[key]);
    return this.#wait(key, { kind: "sample", params: samplingParams(request) });
  };

  #wait(key: string, asked: AskedInput): never {
    assertAnswerable(this.capabilities, asked);
    this.pending.set(key, asked);
    this.onPending();
    throw new InputPending();
  }
}

/**
 * The client's answer to an elicitation, checked: `accept` with content that fits the form
 * (a URL elicitation accepts without content), or `decline` / `cancel`.
 */
export function elicitAnswer(answer: unknown, request: ElicitRequest): ElicitAnswer {
  const { action, content } = (typeof answer === "object" && answer !== null ? answer : {}) as Record<string, unknown>;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept")
    throw new TypeError(`The client answered ctx.elicit with no valid action (${String(action)}).`);
  if (!("schema" in request)) return { action };
  const values = typeof content === "object" && content !== null && !Array.isArray(content) ? content : {};
  const problems = compileValidator(request.schema)(values as Record<string, unknown>);
  if (problems.length > 0)
    throw new TypeError(`The client's answer to ctx.elicit does not fit the form: ${problems.join("; ")}`);
  return { action, content: values as Record<string, unknown> };
}

/** The client's sampling result, checked for what every result has. */
export function sampleResult(answer: unknown): SampleResult {
  const result = answer as Partial<SampleResult> | null;
  if (typeof result !== "object" || result === null || typeof result.model !== "string" || result.content === undefined)
    throw new TypeError("The client answered ctx.sample with no model result (role, content, model).");
  return result as SampleResult;
}
