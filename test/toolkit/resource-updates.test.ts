/**
 * `toolkit.resourceUpdated(uri)` says a resource changed: every listener added with
 * `onResourceUpdated` (MCP servers, for their subscribed clients) is told the URI, until it
 * stops listening. One listener's failure is not the others'.
 */
import { Toolkit, defineResource } from "toolnexus";

const status = defineResource({ uri: "status://now", name: "status", read: () => "up" });

describe("resource updates", () => {
  it("tell a listener the URI that changed", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    toolkit.onResourceUpdated((uri) => told.push(uri));
    toolkit.resourceUpdated("status://now");
    expect(told).toEqual(["status://now"]);
  });

  it("tell every listener, in the order they were added", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    toolkit.onResourceUpdated((uri) => told.push(`first ${uri}`));
    toolkit.onResourceUpdated((uri) => told.push(`second ${uri}`));
    toolkit.resourceUpdated("status://now");
    expect(told).toEqual(["first status://now", "second status://now"]);
  });

  it("tell listeners of each update, one call per update", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    toolkit.onResourceUpdated((uri) => told.push(uri));
    toolkit.resourceUpdated("status://now");
    toolkit.resourceUpdated("logs://2024-01-01");
    toolkit.resourceUpdated("status://now");
    expect(told).toEqual(["status://now", "logs://2024-01-01", "status://now"]);
  });

  it("tell listeners of a URI no resource of the toolkit serves (a template's, or one served elsewhere)", () => {
    const toolkit = new Toolkit([]);
    const told: string[] = [];
    toolkit.onResourceUpdated((uri) => told.push(uri));
    toolkit.resourceUpdated("weather://Oslo");
    expect(told).toEqual(["weather://Oslo"]);
  });

  it("stop telling a listener once it unsubscribes", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    const unsubscribe = toolkit.onResourceUpdated((uri) => told.push(uri));
    toolkit.resourceUpdated("status://now");
    unsubscribe();
    toolkit.resourceUpdated("status://later");
    expect(told).toEqual(["status://now"]);
  });

  it("keep telling the other listeners when one unsubscribes", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    const unsubscribe = toolkit.onResourceUpdated((uri) => told.push(`gone ${uri}`));
    toolkit.onResourceUpdated((uri) => told.push(`kept ${uri}`));
    unsubscribe();
    toolkit.resourceUpdated("status://now");
    expect(told).toEqual(["kept status://now"]);
  });

  it("go on to the next listeners when one throws, and resourceUpdated does not throw", () => {
    const toolkit = new Toolkit([status]);
    const told: string[] = [];
    toolkit.onResourceUpdated(() => {
      throw new Error("client gone");
    });
    toolkit.onResourceUpdated((uri) => told.push(uri));
    expect(() => toolkit.resourceUpdated("status://now")).not.toThrow();
    expect(told).toEqual(["status://now"]);
  });

  it("leave no unhandled rejection when an async listener rejects", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const toolkit = new Toolkit([status]);
      const told: string[] = [];
      toolkit.onResourceUpdated(async () => {
        await Promise.resolve();
        throw new Error("pub/sub down");
      });
      toolkit.onResourceUpdated((uri) => told.push(uri));
      toolkit.resourceUpdated("status://now");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(told).toEqual(["status://now"]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("are a toolkit's own: another toolkit's listeners are not told", () => {
    const one = new Toolkit([status]);
    const other = new Toolkit([status]);
    const told: string[] = [];
    other.onResourceUpdated((uri) => told.push(uri));
    one.resourceUpdated("status://now");
    expect(told).toEqual([]);
  });

  it.each([
    ["an empty string", ""],
    ["undefined", undefined],
    ["a URL object", new URL("https://example.com/a")],
  ])("refuse %s as the URI with a TypeError saying to give the URI", (_label, uri) => {
    const toolkit = new Toolkit([status]);
    const told: unknown[] = [];
    toolkit.onResourceUpdated((changed) => told.push(changed));
    expect(() => toolkit.resourceUpdated(uri as string)).toThrow(
      new TypeError("resourceUpdated takes the URI of the resource that changed."),
    );
    expect(told).toEqual([]);
  });
});
