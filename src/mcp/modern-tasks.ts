import type { Server as ModernServer } from "@modelcontextprotocol/server";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { isTerminalStatus, type McpTaskStore } from "../tasks/task-store";
import type { ModernSdk } from "./modern-era";
import { runTask, type resolvedTaskOptions, type TaskRun } from "./tasks";

/** The Tasks extension of revision 2026-07-28 (SEP-2663): task handles for `tools/call`, polled with `tasks/get`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

type TaskOptions = ReturnType<typeof resolvedTaskOptions>;

/** Whether the client declared the Tasks extension in this request's capabilities (it may then get a task handle). */
export function clientTakesTasks(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === "object" && extensions !== null && TASKS_EXTENSION in extensions;
}

/** A stored task as the extension's wire `Task`: `ttlMs`, `pollIntervalMs`. */
function wireTask(task: Task): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl ?? null,
    ...(task.pollInterval !== undefined ? { pollIntervalMs: task.pollInterval } : {}),
  };
}

/**
 * Starts a task call in the background, in the same store and with the same leases,
 * cancellation and expiry as a 2025-era task, and answers with its handle
 * (`resultType: "task"`), once `tasks/get` would find it.
 */
export async function startTask(
  tasks: TaskOptions,
  owner: string | undefined,
  origin: { requestId: string | number; params: Record<string, unknown> },
  run: Pick<TaskRun, "call" | "track">,
): Promise<Record<string, unknown>> {
  const task = await tasks.store.createTask(
    { ttl: tasks.ttl, pollInterval: tasks.pollInterval },
    origin.requestId,
    { method: "tools/call", params: origin.params },
    owner,
  );
  void runTask({
    taskId: task.taskId,
    ttl: task.ttl,
    store: tasks.store,
    owner,
    pollInterval: tasks.pollInterval,
    ...run,
  });
  return { resultType: "task", ...wireTask(task) };
}

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` of the extension, on `owner`'s tasks. A tool
 * that answered with `isError` is a `completed` task whose result says so (the extension keeps
 * `failed` for JSON-RPC errors); no tasks/list (the extension has none).
 */
export function serveTaskMethods(
  server: ModernServer,
  sdk: ModernSdk,
  store: McpTaskStore,
  owner: string | undefined,
): void {
  const { ProtocolError, ProtocolErrorCode, fromJsonSchema } = sdk.server;
  const params = fromJsonSchema<{ taskId: string; inputResponses?: Record<string, unknown> }>({
    type: "object",
    properties: { taskId: { type: "string" }, inputResponses: { type: "object" } },
    required: ["taskId"],
  });
  const known = async (taskId: string): Promise<Task> => {
    const task = await store.getTask(taskId, owner);
    if (task === null)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown task "${taskId}": it never existed, expired, or belongs to another client.`,
      );
    return task;
  };

  server.setRequestHandler("tasks/get", { params }, async ({ taskId }) => {
    const task = await known(taskId);
    if (task.status !== "completed" && task.status !== "failed") return wireTask(task);
    try {
      return { ...wireTask(task), status: "completed", result: await store.getTaskResult(taskId, owner) };
    } catch {
      return {
        ...wireTask(task),
        status: "failed",
        error: { code: ProtocolErrorCode.InternalError, message: task.statusMessage ?? "The task failed." },
      };
    }
  });

  // toolnexus tasks ask nothing of the client while they run: there is no request to answer.
  server.setRequestHandler("tasks/update", { params }, async ({ taskId }) => {
    await known(taskId);
    return {};
  });

  server.setRequestHandler("tasks/cancel", { params }, async ({ taskId }) => {
    const task = await known(taskId);
    // Cancelling is cooperative: a task that finished meanwhile keeps its outcome, and the request is acknowledged.
    if (!isTerminalStatus(task.status))
      await store.updateTaskStatus(taskId, "cancelled", "Cancelled by the client.", owner).catch(() => {});
    return {};
  });
}
