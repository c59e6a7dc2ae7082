import "reflect-metadata";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { scanTools } from "../../src";
import { generateManifest, type GenerateResult } from "../../src/generate";
import { GenerateError } from "../../src/generate/errors";
import { MANIFEST_FILE } from "../../src/manifest";
import { compile, removeTempTrees, tempTree } from "../manifest/temp-package";
import { fixtureProject, fixtures, root, tempProject } from "./support";

/**
 * Class names need to be unique per file, not per project. test/fixtures/generate/same-names
 * declares a tool class InvoiceService in src/billing/invoices.ts and in src/shop/invoices.ts
 * (and a ReportService nobody else names), with outDir "dist" and rootDir "src".
 */
const fixture = join(fixtures, "same-names");
let result: GenerateResult;

beforeAll(() => {
  result = generateManifest({ project: fixtureProject("same-names"), cwd: root });
});
afterAll(removeTempTrees);

describe("generating a project with two tool classes of one name", () => {
  it("keys their tools <file>#ClassName.method, and a name used once ClassName.method", () => {
    expect(Object.keys(result.manifest.tools)).toEqual([
      "ReportService.weekly",
      "src/billing/invoices.ts#InvoiceService.list",
      "src/shop/invoices.ts#InvoiceService.list",
      "src/shop/invoices.ts#InvoiceService.resend",
    ]);
    for (const [key, tool] of Object.entries(result.manifest.tools))
      if (key.includes("#")) expect(key.startsWith(`${tool.file}#`)).toBe(true);
    expect(result.stats).toMatchObject({ tools: 4, classes: 3 });
  });

  it("records the JavaScript file the compiler emits for each (outDir/rootDir)", () => {
    const compiled = Object.fromEntries(
      Object.entries(result.manifest.tools).map(([key, tool]) => [key, tool.compiledFile]),
    );
    expect(compiled).toEqual({
      "ReportService.weekly": "dist/reports.js",
      "src/billing/invoices.ts#InvoiceService.list": "dist/billing/invoices.js",
      "src/shop/invoices.ts#InvoiceService.list": "dist/shop/invoices.js",
      "src/shop/invoices.ts#InvoiceService.resend": "dist/shop/invoices.js",
    });
  });

  it("writes exactly the committed fixture manifest", () => {
    expect(result.text).toBe(readFileSync(join(fixture, MANIFEST_FILE), "utf8"));
  });
});

describe("compiledFile", () => {
  const source =
    'import { Tool } from "toolnexus";\nexport class Service {\n  /** Runs. */\n  @Tool()\n  run() {}\n}\n';
  const compiledOf = (compilerOptions: Record<string, unknown>) => {
    const dir = tempProject({ "src/service.ts": source }, compilerOptions);
    try {
      return generateManifest({ cwd: dir }).manifest.tools["Service.run"]!.compiledFile;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("is next to the source without outDir, under outDir by rootDir, absent when nothing is emitted", () => {
    expect(compiledOf({ noEmit: false })).toBe("src/service.js");
    expect(compiledOf({ noEmit: false, outDir: "build", rootDir: "." })).toBe("build/src/service.js");
    expect(compiledOf({ noEmit: true, outDir: "build" })).toBeUndefined();
    expect(
      compiledOf({ noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: "build" }),
    ).toBeUndefined();
  });
});

describe("two tool classes of one name in one file", () => {
  it("cannot be told apart at run time: an error naming both places", () => {
    const dir = tempProject({
      "src/services.ts": [
        'import { Tool } from "toolnexus";',
        "export function first() {",
        "  class Service {",
        '    @Tool("a")',
        "    a() {}",
        "  }",
        "  return Service;",
        "}",
        "export function second() {",
        "  class Service {",
        '    @Tool("b")',
        "    b() {}",
        "  }",
        "  return Service;",
        "}",
        "",
      ].join("\n"),
    });
    try {
      generateManifest({ cwd: dir });
      throw new Error("expected a GenerateError");
    } catch (error) {
      expect(error).toBeInstanceOf(GenerateError);
      expect((error as GenerateError).problems).toEqual([
        {
          file: "src/services.ts",
          line: 10,
          column: 9,
          className: "Service",
          message:
            "Service: another class named Service with @Tool methods is declared in the same file, at src/services.ts:3:9. Tools are found by class name and file at run time: rename one of them.",
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("at run time, each class gets the entries of its own file", () => {
  type Ctor = new () => object;
  const descriptions = (...classes: Ctor[]) =>
    classes.map((cls) => scanTools(new cls()).map((tool) => `${tool.name}: ${tool.description}`));

  it("running the TypeScript sources (ts-node, jest): matched by file, the manifest found next to them", () => {
    const { InvoiceService: Billing } = require(join(fixture, "src", "billing", "invoices.ts")) as {
      InvoiceService: Ctor;
    };
    const { InvoiceService: Shop } = require(join(fixture, "src", "shop", "invoices.ts")) as { InvoiceService: Ctor };
    expect(descriptions(Billing, Shop)).toEqual([
      ["list: The open invoices of a customer."],
      ["list: The invoice of an order.", "resend: Sends an order's invoice again."],
    ]);
    expect(scanTools(new Shop())[0]!.inputSchema.properties).toEqual({
      order: { type: "number", description: "The order number." },
    });
  });

  it("running the compiled files: matched by compiledFile", () => {
    const read = (path: string) => readFileSync(join(fixture, "src", path), "utf8");
    const app = tempTree({
      "package.json": {},
      [MANIFEST_FILE]: result.manifest,
      "dist/billing/invoices.js": compile(read("billing/invoices.ts"), "invoices.ts"),
      "dist/shop/invoices.js": compile(read("shop/invoices.ts"), "invoices.ts"),
    });
    const { InvoiceService: Billing } = require(join(app, "dist", "billing", "invoices.js")) as {
      InvoiceService: Ctor;
    };
    const { InvoiceService: Shop } = require(join(app, "dist", "shop", "invoices.js")) as { InvoiceService: Ctor };
    expect(descriptions(Billing, Shop)).toEqual([
      ["list: The open invoices of a customer."],
      ["list: The invoice of an order.", "resend: Sends an order's invoice again."],
    ]);
  });
});
