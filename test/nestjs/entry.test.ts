/**
 * The edges stay optional: the core entry never loads NestJS, and `toolnexus/nestjs` loads
 * `toolnexus/mcp` (and so the MCP SDK) only when the mcp option is used. Checked on the
 * sources: every forbidden module is replaced by one that throws as soon as it is loaded.
 */
const forbidden: string[] = [];

function forbid(moduleName: string, message: string) {
  forbidden.push(moduleName);
  jest.doMock(moduleName, () => {
    throw new Error(message);
  });
}

describe("entry points", () => {
  afterEach(() => {
    for (const name of forbidden.splice(0)) jest.dontMock(name);
    jest.resetModules();
  });

  it('require("toolnexus") never loads NestJS', () => {
    jest.isolateModules(() => {
      for (const name of ["@nestjs/common", "@nestjs/core", "@nestjs/testing", "@nestjs/platform-express"])
        forbid(name, `the core loaded ${name}`);
      const core = require("../../src/index") as typeof import("../../src/index");
      expect(typeof core.Toolkit).toBe("function");
    });
  });

  it('require("toolnexus/nestjs") does not load toolnexus/mcp until the mcp option is used', async () => {
    let Test!: typeof import("@nestjs/testing").Test;
    let nest!: typeof import("../../src/nestjs");
    let core!: typeof import("../../src/index");
    let fixtures!: typeof import("./fixtures");
    jest.isolateModules(() => {
      forbid("../../src/mcp", "toolnexus/mcp was loaded");
      ({ Test } = require("@nestjs/testing") as typeof import("@nestjs/testing"));
      nest = require("../../src/nestjs") as typeof import("../../src/nestjs");
      // The injection token is the core's Toolkit class, from the same module registry.
      core = require("../../src/index") as typeof import("../../src/index");
      fixtures = require("./fixtures") as typeof import("./fixtures");
    });
    // A whole application without the mcp option: nothing loads toolnexus/mcp.
    const moduleRef = await Test.createTestingModule({
      imports: [nest.ToolnexusModule.forRoot(), fixtures.CatalogModule],
    })
      .setLogger(new fixtures.RecordingLogger())
      .compile();
    const app = await moduleRef.init();
    expect(app.get(core.Toolkit).size).toBe(2);
    await app.close();
  });
});
