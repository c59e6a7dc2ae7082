import { randomUUID } from "node:crypto";
import type { SessionState } from "./primitives";

/** How many sessions' capabilities an instance remembers (the oldest are forgotten first). */
export const REMEMBERED_SESSIONS = 10_000;

type Deliver = (response: Record<string, unknown>) => void;

/**
 * What lets a stateless 2025-era HTTP server ask its client (`ctx.elicit`, `ctx.sample`): the
 * capabilities each session declared at `initialize` on this instance, and the requests sent to
 * clients, by a wire id of their own, so that the response the client POSTs (a request of its
 * own, to a fresh server) reaches the call that asked. Both live in this process only: behind
 * a load balancer, the instance that answered `initialize` must get the session's requests
 * (sticky sessions) for its tools to ask.
 */
export class SessionRelay {
  readonly #capabilities = new Map<string, Record<string, unknown>>();
  readonly #waiting = new Map<string, Deliver>();
  readonly #sessions = new Map<string, SessionState>();

  /** What a session keeps between its requests on this instance: its log level. */
  sessionOf(client: string): SessionState {
    // The least recently used session is the one forgotten first.
    const state = this.#sessions.get(client) ?? {};
    this.#sessions.delete(client);
    this.#sessions.set(client, state);
    if (this.#sessions.size > REMEMBERED_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    return state;
  }

  /** Remembers what a session's client declared at `initialize`. */
  remember(client: string, capabilities: unknown): void {
    if (typeof capabilities !== "object" || capabilities === null) return;
    this.#capabilities.delete(client);
    this.#capabilities.set(client, capabilities as Record<string, unknown>);
    if (this.#capabilities.size > REMEMBERED_SESSIONS)
      this.#capabilities.delete(this.#capabilities.keys().next().value!);
  }

  capabilitiesOf(client: string | undefined): Record<string, unknown> | undefined {
    return client === undefined ? undefined : this.#capabilities.get(client);
  }

  /**
   * A wire id for a request to the client: its response goes to `deliver` (with the request's
   * own id back). The returned function forgets it (the call ended, the stream closed).
   */
  send(client: string, deliver: Deliver): { wireId: string; forget: () => void } {
    const wireId = `toolnexus-${randomUUID()}`;
    const key = `${client}\u0000${wireId}`;
    this.#waiting.set(key, deliver);
    return { wireId, forget: () => this.#waiting.delete(key) };
  }

  /** Hands a client's response to the call that asked; false when no call here waits for it. */
  deliver(client: string, response: { id?: unknown }): boolean {
    const key = `${client}\u0000${String(response.id)}`;
    const deliver = this.#waiting.get(key);
    if (deliver === undefined) return false;
    this.#waiting.delete(key);
    deliver(response as Record<string, unknown>);
    return true;
  }
}
