/**
 * What the matrix's uses talk to, all on 127.0.0.1 and started by the test: the provider
 * stand-ins (Gemini, OpenAI Chat and Responses, Anthropic: test/support/mock-providers.ts; the
 * Bedrock Converse stand-in), whose scripted model calls `get_weather` for Chennai, and this
 * jest worker's redis-server for the queue.
 */
import { startMockProviders, type MockProviders, type ScriptedCall } from "../../support/mock-providers";
import { workerRedisServer, type RedisServer } from "../../support/redis-server";
import { startConverseStandIn, type ConverseStandIn } from "./converse-stand-in";

export const SCRIPTED_CALLS: ScriptedCall[] = [{ name: "get_weather", args: { city: "Chennai" } }];

/** The text every stand-in's model answers with once it has the tool's result. */
export const FINAL_ANSWER = "The tools returned:\n- get_weather: sunny in Chennai";

export interface MatrixServices {
  /** The environment a use's process gets: MOCK_PROVIDERS_URL, CONVERSE_URL, and REDIS_PORT once Redis is up. */
  environment(needsRedis: boolean): Promise<NodeJS.ProcessEnv>;
  close(): Promise<void>;
}

export async function startMatrixServices(): Promise<MatrixServices> {
  const [providers, converse]: [MockProviders, ConverseStandIn] = await Promise.all([
    startMockProviders({ calls: SCRIPTED_CALLS }),
    startConverseStandIn(SCRIPTED_CALLS),
  ]);
  // Only the queue's use needs Redis: without redis-server, that use fails saying so, and no other.
  const redis: Promise<RedisServer> = workerRedisServer();
  redis.catch(() => undefined);
  return {
    async environment(needsRedis) {
      const base = { MOCK_PROVIDERS_URL: providers.baseUrl, CONVERSE_URL: converse.endpoint };
      return needsRedis ? { ...base, REDIS_PORT: String((await redis).port) } : base;
    },
    async close() {
      await Promise.all([
        providers.close(),
        converse.close(),
        redis.then(
          (server) => server.stop(),
          () => undefined,
        ),
      ]);
    },
  };
}
