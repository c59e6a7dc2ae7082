import { connect } from "node:net";
import { Toolkit } from "../../src";
import { serveMcp } from "../../src/mcp";
import { WeatherService } from "../fixtures/cli/services";

/** Sends raw bytes and resolves with whatever the server answers before closing. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("the HTTP server survives malformed request targets", () => {
  it("answers after a request line whose target is not a valid URL", async () => {
    const server = await serveMcp(new Toolkit([new WeatherService()]), { transport: "http", port: 0 });
    try {
      for (const target of ["//[", "http://[", "/%%%"]) {
        const answer = await raw(
          server.port!,
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
        );
        expect(answer).toMatch(/^HTTP\/1\.1 (400|404)/);
      }
      const after = await fetch(`http://127.0.0.1:${server.port}/elsewhere`);
      expect(after.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
