/**
 * Ollama's native chat API (`POST /api/chat`) as toolnexus writes and reads it. The shapes follow
 * the server's Go types (`api.Tool`, `api.ToolProperty`, `api.ToolCall`, `api.Message`) and are
 * assignable to the `ollama` client's `Tool` and `Message` as they are.
 */

// ---- Declarations ----------------------------------------------------------------------

/**
 * A schema node as Ollama's `ToolProperty` holds it: these fields and no others (the server
 * drops any other keyword without a word). `items` is raw JSON to the server, kept as sent.
 */
export type OllamaToolProperty = {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: unknown;
  anyOf?: OllamaToolProperty[];
  properties?: Record<string, OllamaToolProperty>;
  required?: string[];
};

/** A function's `parameters` as Ollama's `ToolFunctionParameters` holds them: an object at the root. */
export type OllamaParameters = {
  type: "object";
  properties?: Record<string, OllamaToolProperty>;
  required?: string[];
};

export type OllamaTool = {
  type: "function";
  function: { name: string; description: string; parameters: OllamaParameters };
};

// ---- Calls in --------------------------------------------------------------------------

/**
 * A call as a chat response carries it: `arguments` is an object, not JSON text. Ollama 0.12.10
 * and later add an `id`, and `function.index` (the call's place in the turn).
 */
export type OllamaToolCallLike = {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
};

export type OllamaMessageLike = { role?: string; content?: string; tool_calls?: OllamaToolCallLike[] | null };

export type OllamaChatResponseLike = { message: OllamaMessageLike };

/** A non-streaming chat response, its assistant `message`, or the message's `tool_calls`. */
export type OllamaCallsInput = OllamaChatResponseLike | OllamaMessageLike | readonly OllamaToolCallLike[];

// ---- Results out -----------------------------------------------------------------------

/**
 * The answer to one call: the result's text (an error's starting "Error:", since the message
 * has no error flag), the tool's name as the model called it, the call's id when it had one,
 * and the result's images as base64.
 */
export type OllamaToolMessage = {
  role: "tool";
  content: string;
  tool_name: string;
  tool_call_id?: string;
  images?: string[];
};
