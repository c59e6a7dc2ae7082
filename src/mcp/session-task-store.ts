import type { CreateTaskOptions } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import {
  ErrorCode,
  McpError,
  type Request,
  type RequestId,
  type Result,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import { invalidCursor, isUnlistedOwner, type McpTaskStore } from "../tasks/task-store";

/**
 * The store as one client's calls see it: every task bound to `owner` (the HTTP client's
 * session and credentials), whatever the transport says; an unlisted owner is listed no task;
 * and a cancelled task's result asked for is an error that says so, rather than the store's
 * "no result".
 */
export function storeFor(store: McpTaskStore, owner: string | undefined): McpTaskStore {
  const as = (given: string | undefined) => owner ?? given;
  return {
    createTask: (params: CreateTaskOptions, requestId: RequestId, request: Request, session?: string) =>
      store.createTask(params, requestId, request, as(session)),
    getTask: (taskId: string, session?: string) => store.getTask(taskId, as(session)),
    storeTaskResult: (taskId: string, status: "completed" | "failed", result: Result, session?: string) =>
      store.storeTaskResult(taskId, status, result, as(session)),
    getTaskResult: async (taskId: string, session?: string) => {
      const task = await store.getTask(taskId, as(session));
      if (task?.status === "cancelled")
        throw new McpError(ErrorCode.InvalidParams, `Task ${taskId} was cancelled, so it has no result.`);
      return store.getTaskResult(taskId, as(session));
    },
    updateTaskStatus: (taskId: string, status: Task["status"], message?: string, session?: string) =>
      store.updateTaskStatus(taskId, status, message, as(session)),
    listTasks: async (cursor?: string, session?: string) => {
      if (!isUnlistedOwner(as(session))) return store.listTasks(cursor, as(session));
      if (cursor !== undefined) throw invalidCursor(cursor);
      return { tasks: [] };
    },
    ...(store.watchCancellation !== undefined ? { watchCancellation: store.watchCancellation.bind(store) } : {}),
    ...(store.holdLease !== undefined ? { holdLease: store.holdLease.bind(store) } : {}),
  };
}
