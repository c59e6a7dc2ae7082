import type { ToolContext, ToolResult } from "../core/types";
import type { CallPipeline } from "../pipeline/call-pipeline";

/**
 * The entry executors' workers run calls through (not part of the public API): a toolkit's
 * pipeline, by toolkit. Held weakly: a toolkit that is gone takes its pipeline with it.
 */
const pipelines = new WeakMap<object, CallPipeline>();

/** Called once by each toolkit as it is made. */
export function enterQueuedCalls(toolkit: object, pipeline: CallPipeline): void {
  pipelines.set(toolkit, pipeline);
}

function pipelineOf(toolkit: object): CallPipeline {
  const pipeline = pipelines.get(toolkit);
  if (pipeline === undefined)
    throw new TypeError("A tool worker takes the Toolkit its calls run in (new Toolkit([...])).");
  return pipeline;
}

/**
 * Runs a call that already passed the seams of the toolkit it arrived at, with `toolkit`'s tool
 * of that name: retries and the body (which checks the arguments again), never approval or
 * middleware again. Never rejects.
 */
export function runQueuedCall(
  toolkit: object,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  return pipelineOf(toolkit).runQueued(name, args, ctx);
}

/** A failure as `toolkit`'s `onError` and `errorText` make it, for a result a worker hands on itself. */
export function reportQueuedFailure(toolkit: object, name: string, result: ToolResult, ctx: ToolContext): ToolResult {
  return pipelineOf(toolkit).reported(name, result, ctx);
}
