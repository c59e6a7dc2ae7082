/**
 * Who reaches which MCP task over streamable HTTP, with the tasks in memory (one store shared
 * by two instances in this process): a task is its session's; a request without a session
 * reaches a task only by its id, and is listed none. The specification is test/mcp/task-isolation.ts.
 */
import { inMemoryTaskStore } from "../../src/mcp";
import { specifyTaskIsolation } from "./task-isolation";

specifyTaskIsolation(() => {
  const store = inMemoryTaskStore();
  return [store, store];
});
