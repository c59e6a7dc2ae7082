/** The defaults `toolnexus serve --help` shows (restated so that help does not load the MCP SDK) are the library's. */
import { SERVE_DEFAULTS } from "../../src/cli/commands/serve";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_SHUTDOWN_TIMEOUT } from "../../src/mcp";

it("serve's shown defaults are serveMcp's", () => {
  expect(SERVE_DEFAULTS.maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES);
  expect(SERVE_DEFAULTS.shutdownTimeout).toBe(DEFAULT_SHUTDOWN_TIMEOUT);
});
