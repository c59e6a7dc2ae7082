/**
 * @google/genai (Node) sends every request through Undici's global dispatcher, which it looks
 * up as `globalThis[Symbol.for("undici.globalDispatcher.1")]`. Node creates that dispatcher on
 * its main-context global; jest runs each test file in a vm context with its own `globalThis`,
 * so the SDK fails there with "Undici globalDispatcher is not available" (plain Node is fine).
 * Importing this module shares the main context's dispatcher with the test context.
 * Nothing else changes: requests still go through Node's own fetch.
 */
import { runInThisContext } from "node:vm";

const DISPATCHER = Symbol.for("undici.globalDispatcher.1");
type WithDispatcher = { [DISPATCHER]?: unknown };

const mainGlobal = runInThisContext("globalThis") as WithDispatcher;
const testGlobal = globalThis as WithDispatcher;

if (testGlobal[DISPATCHER] === undefined) {
  new Headers(); // Node initializes Undici (and its global dispatcher) lazily.
  if (mainGlobal[DISPATCHER] === undefined)
    throw new Error("Node's Undici global dispatcher was not found on the main context.");
  testGlobal[DISPATCHER] = mainGlobal[DISPATCHER];
}

export {};
