import "reflect-metadata";
import { join } from "node:path";
import { ManifestError, ManifestIndex, type ManifestTool, type ToolnexusManifest } from "../../src/manifest";

/**
 * `<file>#ClassName.method` entries: the running class's defining file picks its own, matched
 * against `file` (TypeScript run directly) or `compiledFile`, extensions ignored, relative to
 * the manifest's directory (or, for a manifest without one, by the longest tail of the path).
 */
const entry = (file: string, description: string, compiledFile?: string): ManifestTool => ({
  name: "list",
  file,
  ...(compiledFile !== undefined ? { compiledFile } : {}),
  hash: "sha256:11111111111111111111111111111111",
  description,
  parameters: [],
});
const manifest: ToolnexusManifest = {
  manifestVersion: 1,
  hash: "sha256:00000000000000000000000000000000",
  tools: {
    "src/billing/invoices.ts#InvoiceService.list": entry(
      "src/billing/invoices.ts",
      "Billing.",
      "dist/billing/invoices.js",
    ),
    "src/shop/invoices.ts#InvoiceService.list": entry("src/shop/invoices.ts", "Shop.", "dist/shop/invoices.js"),
    "src/shop/invoices.ts#InvoiceService.resend": entry("src/shop/invoices.ts", "Resend."),
  },
};
const project = "/srv/app";
const fromFile = new ManifestIndex(manifest, join(project, "toolnexus.manifest.json"), project);
const fromObject = new ManifestIndex(manifest, "given in the options");

describe("which entry a class of a shared name gets", () => {
  it("the one whose file or compiledFile is where the class was defined, extensions ignored", () => {
    expect(fromFile.entry("InvoiceService", "list", "/srv/app/src/billing/invoices.ts")!.description).toBe("Billing.");
    expect(fromFile.entry("InvoiceService", "list", "/srv/app/dist/shop/invoices.js")!.description).toBe("Shop.");
    expect(fromFile.entry("InvoiceService", "list", "/srv/app/dist/shop/invoices.mjs")!.description).toBe("Shop.");
  });

  it("a manifest without a directory (an object) matches by the longest tail of the path", () => {
    expect(fromObject.entry("InvoiceService", "list", "/anywhere/else/src/billing/invoices.ts")!.description).toBe(
      "Billing.",
    );
    expect(fromObject.entry("InvoiceService", "list", "/deploy/dist/shop/invoices.js")!.description).toBe("Shop.");
  });

  it("an entry no other class shares is used even from a bundle; so is no entry at all", () => {
    expect(fromFile.entry("InvoiceService", "resend", "/srv/app/bundle/main.js")!.description).toBe("Resend.");
    expect(fromFile.entry("InvoiceService", "archive", "/srv/app/bundle/main.js")).toBeUndefined();
    expect(fromFile.entry("OtherService", "list", "/srv/app/src/billing/invoices.ts")).toBeUndefined();
  });

  it("several candidates and none is the defining file (a bundle): a ManifestError listing them", () => {
    const ambiguous = () => fromFile.entry("InvoiceService", "list", "/srv/app/bundle/main.js");
    expect(ambiguous).toThrow(ManifestError);
    expect(ambiguous).toThrow(
      'InvoiceService.list: the manifest /srv/app/toolnexus.manifest.json has entries for 2 classes named InvoiceService ("src/billing/invoices.ts#InvoiceService.list" (compiled: dist/billing/invoices.js), "src/shop/invoices.ts#InvoiceService.list" (compiled: dist/shop/invoices.js)), and the file defining this one, /srv/app/bundle/main.js, is none of them. Run the compiled files as the compiler emits them (a bundle has one file for all classes) with the manifest in the project\'s directory, or give the classes different names.',
    );
    expect(() => fromFile.entry("InvoiceService", "list", undefined)).toThrow(
      /and the file defining this one is unknown\./,
    );
  });
});
