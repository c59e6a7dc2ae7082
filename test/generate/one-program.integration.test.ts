import { rmSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { generateManifest } from "../../src/generate";
import { tempProject } from "./support";

// Counts the compiler programs generation creates (typescript-json-schema shares the module).
jest.mock("typescript", () => {
  const actual = jest.requireActual("typescript");
  return { ...actual, createProgram: jest.fn(actual.createProgram) };
});

it("uses one compiler program for the whole project, not one per tool or file", () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++) {
    files[`src/s${i}.ts`] =
      `import { Tool } from "toolnexus";\nexport class S${i} {\n  @Tool("a") a(x: string) {}\n  @Tool("b") b(y: "p" | "q") {}\n}\n`;
  }
  const dir = tempProject(files);
  try {
    const { manifest, stats } = generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
    expect(Object.keys(manifest.tools)).toHaveLength(10);
    expect(stats).toMatchObject({ files: 5, tools: 10, classes: 5 });
    expect(ts.createProgram).toHaveBeenCalledTimes(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
