import { createHash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json";
import { InputUnavailableError } from "../core/errors";
import {
  assertElicitRequest,
  assertSampleRequest,
  samplingParams,
  type ElicitAnswer,
  type ElicitRequest,
  type InputQuestion,
  type SampleRequest,
  type SampleResult,
} from "../core/input-requests";
import { compileValidator } from "../runtime/validation";
import { unanswerable, type AnsweringCapabilities } from "./client-capabilities";

/** What a call asked the client in one round, by key: MCP's `elicitation/create` or `sampling/createMessage`. */
export type AskedInput =
  { kind: "elicit"; request: ElicitRequest } | { kind: "sample"; params: Record<string, unknown> };

/**
 * What a round keeps for the next one, in the signed `requestState`: every answer so far and
 * the questions just asked, each under its key with a digest of the question it answers.
 */
export interface InputRoundState {
  answers: Record<string, { question: string; answer: unknown }>;
  asked: Record<string, string>;
}

/** The question of an answer the client gave before it was asked: whatever the tool asks under its key. */
const ANY_QUESTION = "";

/** A promise that never settles: a round stops at its first unanswered question, whatever the tool catches. */
const NEVER = new Promise<never>(() => {});

/**
 * One round of a call that may ask the client (MCP 2026-07-28 multi-round-trip), for the
 * re-run model: the tool runs from the start every round; each `ctx.elicit` / `ctx.sample`
 * gets the answer an earlier round collected for the same question (by key: the tool's own, or
 * its position). The first question without an answer (and any asked beside it) is recorded,
 * the call's signal is aborted, and the question never resolves: nothing after it runs in this
 * round. The server answers `input_required` with the questions and this round's state, and
 * the client calls again with the answers. So a tool asks before it acts, or makes what it
 * does before a question safe to repeat.
 */
export class InputRound {
  #asked = 0;
  readonly #answers: InputRoundState["answers"];
  /** The questions this round could not answer, by key. */
  readonly pending = new Map<string, AskedInput>();
  /** The rejections of questions the client cannot take, with the capability each needed. */
  readonly #refused = new Map<InputUnavailableError, AnsweringCapabilities>();

  /** `previous`: the verified state of the last round; `responses`: the client's answers to its questions. */
  constructor(
    previous: InputRoundState | undefined,
    responses: Record<string, unknown> | undefined,
    private readonly capabilities: AnsweringCapabilities | undefined,
    private readonly onPending: () => void,
  ) {
    // No prototype: a question's key is the tool's to choose, "__proto__" included.
    const answers: InputRoundState["answers"] = Object.assign(Object.create(null), previous?.answers);
    const asked = previous?.asked ?? {};
    for (const [key, answer] of Object.entries(responses ?? {})) {
      // An answer of an earlier round stands; one to a question just asked is for that question; one to a question not
      // asked yet (a client may answer what it expects to be asked) is for whatever the tool asks under that key.
      if (Object.prototype.hasOwnProperty.call(answers, key)) continue;
      answers[key] = {
        question: Object.prototype.hasOwnProperty.call(asked, key) ? asked[key]! : ANY_QUESTION,
        answer,
      };
    }
    this.#answers = answers;
  }

  /** The state for the next round: every answer so far, and the questions asked now. */
  next(): InputRoundState {
    return {
      answers: this.#answers,
      asked: Object.fromEntries([...this.pending].map(([key, asked]) => [key, questionDigest(asked)])),
    };
  }

  /**
   * The capabilities the client lacks for a request that failed with `failure` (or an error
   * caused by it): set when a question it cannot take was not caught by the tool, resource or
   * prompt that asked it, so the request could not be served without them.
   */
  requiredBy(failure: unknown): AnsweringCapabilities | undefined {
    for (let seen = failure, depth = 0; seen instanceof Error && depth < 8; seen = seen.cause, depth++) {
      const required = this.#refused.get(seen as InputUnavailableError);
      if (required !== undefined) return required;
    }
    return undefined;
  }

  readonly elicit = async (request: ElicitRequest): Promise<ElicitAnswer> => {
    assertElicitRequest(request);
    return this.#ask(request, { kind: "elicit", request }, (given) => elicitAnswer(given, request));
  };

  readonly sample = async (request: SampleRequest): Promise<SampleResult> => {
    assertSampleRequest(request);
    return this.#ask(request, { kind: "sample", params: samplingParams(request) }, sampleResult);
  };

  /**
   * The answer collected for this question, read; else the question is recorded and never
   * resolves. An answer given to another question under the same key (the tool asked something
   * else this time), or one that is no answer (malformed, or content that does not fit the
   * form), counts as none: the question is asked again, as MCP recommends.
   */
  #ask<T>(question: InputQuestion, asked: AskedInput, read: (given: unknown) => T): Promise<T> {
    const position = String(this.#asked++);
    const key = question.key ?? position;
    const collected = this.#answers[key];
    if (
      collected !== undefined &&
      (collected.question === ANY_QUESTION || collected.question === questionDigest(asked))
    ) {
      try {
        return Promise.resolve(read(collected.answer));
      } catch {
        delete this.#answers[key];
      }
    }
    if (this.pending.has(key))
      return Promise.reject(new TypeError(`Two questions of one call have the key "${key}": give each its own.`));
    const refusal = unanswerable(this.capabilities, asked);
    if (refusal !== undefined) {
      const error = new InputUnavailableError(refusal.why);
      this.#refused.set(error, refusal.required);
      return Promise.reject(error);
    }
    this.pending.set(key, asked);
    this.onPending();
    return NEVER;
  }
}

/** What identifies a question across rounds: a digest of what it asks. */
function questionDigest(asked: AskedInput): string {
  return createHash("sha256").update(canonicalJson(asked)).digest("base64url").slice(0, 22);
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
