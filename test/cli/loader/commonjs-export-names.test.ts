/** The names an ES module may import from a CommonJS TypeScript file: what the file exports as values. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonJsExportNames } from "../../../src/cli/loader/commonjs-export-names";

const dir = mkdtempSync(join(tmpdir(), "toolnexus-export-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function namesOf(files: Record<string, string>, entry: string): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return [...commonJsExportNames(join(dir, entry))].sort();
}

it("exported declarations, destructured variables included", () => {
  const source = [
    "export const a = 1, { b, c: [d, , e] } = { b: 2, c: [3, 4, 5] };",
    "export function f() {}",
    "export class K {}",
    "export enum Color { Red }",
    "export namespace Space { export const x = 1; }",
  ].join("\n");
  expect(namesOf({ "declarations.cts": source }, "declarations.cts")).toEqual([
    "Color",
    "K",
    "Space",
    "a",
    "b",
    "d",
    "e",
    "f",
  ]);
});

it("export lists and re-exports, without types, declarations of the ambient kind or the default", () => {
  const source = [
    "const local = 1;",
    "export { local as renamed, local as 'with space' };",
    "export { x as y } from './other.cjs';",
    "export * as everything from './other.cjs';",
    "export type { T } from './other.cjs';",
    "export { type U, v } from './other.cjs';",
    "export interface I {}",
    "export type Alias = string;",
    "export declare const ambient: number;",
    "export default class Main {}",
  ].join("\n");
  expect(namesOf({ "lists.cts": source }, "lists.cts")).toEqual(["everything", "renamed", "v", "with space", "y"]);
});

it("export * from another TypeScript file adds its names, by its .js name or without an extension; cycles end", () => {
  const files = {
    "star.ts": "export * from './first.js';\nexport * from './second';\nexport const own = 1;",
    "first.ts": "export const one = 1;\nexport * from './star.js';",
    "second.ts": "export function two() {}",
  };
  expect(namesOf(files, "star.ts")).toEqual(["one", "own", "two"]);
});

it("export * from a package adds nothing (its names stay on the default import)", () => {
  expect(
    namesOf({ "package-star.cts": "export * from 'some-package';\nexport const mine = 1;" }, "package-star.cts"),
  ).toEqual(["mine"]);
});
