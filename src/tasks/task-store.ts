import { randomBytes } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";

// The task store's contract, its shared helpers and the in-memory store: below the edges (the
// toolkit layer), because both the MCP server (src/mcp/) and the queue's Redis store and
// workers (src/bullmq/) build on them. What is MCP protocol (tasks/* requests, task options)
// stays in src/mcp/tasks.ts.

/**
 * Where an MCP server keeps its tasks: the official SDK's `TaskStore` (the SDK answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from it), plus a way for the
 * instance running a task to hear that it was cancelled, whichever instance took the cancel.
 * The last argument of every method (the SDK's `sessionId`) is the task's owner: a task is
 * found under the owner it was created with only (one created without an owner is not found
 * under any); a caller without one (a queue worker, the one client of a stdio server) finds
 * every task. `listTasks` lists the tasks created with exactly its owner; `tasks/list` never
 * asks it for an `unlistedOwner`'s, so a store need not index those.
 */
export interface McpTaskStore extends TaskStore {
  /**
   * Calls `listener` once when the task is cancelled (`updateTaskStatus(id, "cancelled")` on
   * any store sharing this one's data); returns a function that stops listening. A store
   * without it is polled every `pollInterval` while the task runs.
   */
  watchCancellation?(taskId: string, listener: (reason: string) => void): () => void;
  /**
   * Called by whoever runs a task's call (the server instance waiting for it, and a queue
   * worker given the store), for as long as it runs; returns the function that lets go. A store
   * shared by instances renews a lease per holder meanwhile, and marks a `working` task whose
   * every lease lapsed (its holders died) `failed`. A store of one process needs none: the
   * tasks die with it.
   */
  holdLease?(taskId: string): () => void;
}

/** Terminal statuses: a task in one never changes again. */
export function isTerminalStatus(status: Task["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** A fresh task id: 128 random bits, so that knowing one is what it takes to read its task. */
export function newTaskId(): string {
  return randomBytes(16).toString("hex");
}

/** The task the store creates from the server's parameters: working, its TTL as given (the server caps it). */
export function newTask(taskId: string, params: CreateTaskOptions): Task {
  const now = new Date().toISOString();
  return {
    taskId,
    status: "working",
    ttl: params.ttl ?? null,
    createdAt: now,
    lastUpdatedAt: now,
    pollInterval: params.pollInterval ?? 1_000,
  };
}

/** What `tasks/list` with a cursor that no page of the list ends with is answered. */
export function invalidCursor(cursor: string): Error {
  return new Error(`Invalid cursor ${JSON.stringify(cursor)}: list again without one.`);
}

/** Tasks a page of `tasks/list` holds. */
export const TASK_PAGE_SIZE = 50;

interface Stored {
  task: Task;
  owner: string | undefined;
  result?: Result;
  timer?: NodeJS.Timeout;
}

/**
 * The default store: tasks in this process's memory, for one server instance (several
 * instances need a shared store: `redisTaskStore` from `toolnexus/bullmq`). A task is dropped
 * `ttl` ms after it is created, and again counted from its result; the timers never keep the
 * process alive.
 */
export function inMemoryTaskStore(): McpTaskStore & { readonly size: number } {
  const tasks = new Map<string, Stored>();
  const watchers = new Map<string, Set<(reason: string) => void>>();

  const expireAfter = (taskId: string, stored: Stored) => {
    clearTimeout(stored.timer);
    if (stored.task.ttl === null) return;
    stored.timer = setTimeout(() => tasks.delete(taskId), stored.task.ttl);
    stored.timer.unref();
  };
  const lookup = (taskId: string, owner: string | undefined): Stored | undefined => {
    const stored = tasks.get(taskId);
    return stored !== undefined && visibleTo(stored.owner, owner) ? stored : undefined;
  };
  const found = (taskId: string, owner: string | undefined): Stored => {
    const stored = lookup(taskId, owner);
    if (stored === undefined) throw new Error(`Task ${taskId} not found.`);
    return stored;
  };
  const change = (
    taskId: string,
    owner: string | undefined,
    status: Task["status"],
    statusMessage?: string,
  ): Stored => {
    const stored = found(taskId, owner);
    if (isTerminalStatus(stored.task.status))
      throw new Error(`Task ${taskId} is already ${stored.task.status}; a finished task does not change.`);
    stored.task = {
      ...stored.task,
      status,
      ...(statusMessage ? { statusMessage } : {}),
      lastUpdatedAt: new Date().toISOString(),
    };
    return stored;
  };

  return {
    get size() {
      return tasks.size;
    },
    async createTask(
      params: CreateTaskOptions,
      _requestId: RequestId,
      _request: Request,
      owner?: string,
    ): Promise<Task> {
      const taskId = newTaskId();
      const stored: Stored = { task: newTask(taskId, params), owner };
      tasks.set(taskId, stored);
      expireAfter(taskId, stored);
      return { ...stored.task };
    },
    async getTask(taskId: string, owner?: string): Promise<Task | null> {
      const stored = lookup(taskId, owner);
      return stored === undefined ? null : { ...stored.task };
    },
    async storeTaskResult(
      taskId: string,
      status: "completed" | "failed",
      result: Result,
      owner?: string,
    ): Promise<void> {
      const stored = change(taskId, owner, status);
      stored.result = result;
      expireAfter(taskId, stored);
    },
    async getTaskResult(taskId: string, owner?: string): Promise<Result> {
      const { result } = found(taskId, owner);
      if (result === undefined) throw new Error(`Task ${taskId} has no result.`);
      return result;
    },
    async updateTaskStatus(
      taskId: string,
      status: Task["status"],
      statusMessage?: string,
      owner?: string,
    ): Promise<void> {
      change(taskId, owner, status, statusMessage);
      if (status === "cancelled")
        for (const listener of [...(watchers.get(taskId) ?? [])]) listener(statusMessage ?? "The task was cancelled.");
    },
    async listTasks(cursor?: string, owner?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
      const ids = [...tasks.keys()].filter((taskId) => tasks.get(taskId)!.owner === owner);
      const start = cursor === undefined ? 0 : ids.indexOf(cursor) + 1;
      if (start === 0 && cursor !== undefined) throw invalidCursor(cursor);
      const page = ids.slice(start, start + TASK_PAGE_SIZE);
      const more = start + TASK_PAGE_SIZE < ids.length;
      return {
        tasks: page.map((taskId) => ({ ...tasks.get(taskId)!.task })),
        ...(more ? { nextCursor: page[page.length - 1]! } : {}),
      };
    },
    watchCancellation(taskId: string, listener: (reason: string) => void): () => void {
      let set = watchers.get(taskId);
      if (set === undefined) watchers.set(taskId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(taskId) === set) watchers.delete(taskId);
      };
    },
  };
}

/**
 * Whether a task of `taskOwner` is found by a caller of `caller`: by its owner only, and by callers without one (a
 * worker, a stdio server) all.
 */
export function visibleTo(taskOwner: string | undefined, caller: string | undefined): boolean {
  return caller === undefined || taskOwner === caller;
}

/** Starts an unlisted owner; the owners of sessions never do (session ids are visible ASCII). */
const UNLISTED = "\u0000";

/**
 * The owner of the tasks of a client that nothing tells apart from the others with the same
 * credentials (an HTTP request without a session). Such a task is reached by its id, which
 * only its creator was told, and `tasks/list` shows it to nobody: every such client would see
 * the others' tasks.
 */
export function unlistedOwner(credentials: string): string {
  return `${UNLISTED}${credentials}`;
}

export function isUnlistedOwner(owner: string | undefined): boolean {
  return owner?.startsWith(UNLISTED) === true;
}
