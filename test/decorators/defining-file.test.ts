import "reflect-metadata";
import { applyDecorators } from "@nestjs/common";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import { Tool } from "../../src";
import { definingFileOf } from "../../src/decorators/defining-file";
import { compile, removeTempTrees, tempTree } from "../manifest/temp-package";

/**
 * `@Tool` records the file that defined its class (where the class's manifest is looked for):
 * the code that ran the decorator, past the helpers compilers call decorators through.
 */

afterAll(removeTempTrees);

const SOURCE = `
import { Tool } from "toolnexus";
export class Weather {
  @Tool("Forecast.")
  forecast(city: string) {
    return city;
  }
}
`;
const definedIn = (file: string): string | undefined =>
  definingFileOf((require(file) as { Weather: Function }).Weather.prototype);

describe("the file that defined a @Tool class", () => {
  it("is this file for a class declared here", () => {
    class Here {
      @Tool("Here.")
      run() {
        return "here";
      }
    }
    expect(definingFileOf(Here.prototype)).toBe(__filename);
  });

  it("is the compiled file: tsc's __decorate helper and reflect-metadata's Reflect.decorate are passed", () => {
    const dir = tempTree({ "dist/weather.ts": SOURCE });
    expect(definedIn(join(dir, "dist", "weather.js"))).toBe(join(dir, "dist", "weather.js"));
  });

  it("is the compiled file when the helpers come from tslib (importHelpers)", () => {
    const compiled = compile(SOURCE, "weather.ts", { importHelpers: true });
    expect(compiled).toContain('require("tslib")');
    // The project's own tslib, wherever the file is.
    const dir = tempTree({
      "dist/weather.js": compiled.replace('require("tslib")', `require(${JSON.stringify(require.resolve("tslib"))})`),
    });
    const file = join(dir, "dist", "weather.js");
    expect(definedIn(file)).toBe(file);
  });

  it("is the file using NestJS's applyDecorators, not @nestjs/common", () => {
    class Combined {
      @applyDecorators(Tool("Combined."))
      run() {
        return "combined";
      }
    }
    expect(definingFileOf(Combined.prototype)).toBe(__filename);
  });

  it("is this file when Babel's _applyDecoratedDescriptor applies the decorators through Array.prototype.reduce (a built-in frame, without a file)", () => {
    // @babel/runtime's helper, in the shape Babel's legacy decorators call it.
    const dir = tempTree({
      "node_modules/@babel/runtime/helpers/applyDecoratedDescriptor.js":
        "module.exports = function _applyDecoratedDescriptor(target, property, decorators, descriptor) {\n" +
        "  return decorators.slice().reverse().reduce(function (desc, decorator) { return decorator(target, property, desc) || desc; }, descriptor);\n" +
        "};\n",
    });
    const applyDecoratedDescriptor = require(
      join(dir, "node_modules", "@babel", "runtime", "helpers", "applyDecoratedDescriptor.js"),
    ) as (
      target: object,
      property: string,
      decorators: MethodDecorator[],
      descriptor: PropertyDescriptor,
    ) => PropertyDescriptor;
    class Reduced {
      run() {
        return "reduced";
      }
    }
    applyDecoratedDescriptor(
      Reduced.prototype,
      "run",
      [Tool("Reduced.")],
      Object.getOwnPropertyDescriptor(Reduced.prototype, "run")!,
    );
    expect(definingFileOf(Reduced.prototype)).toBe(__filename);
  });

  it("is a path for an ES module (whose stack names file:// URLs)", () => {
    const url = "file:///srv/app/dist/tools.mjs";
    const define = runInThisContext(
      `(function (Tool) {
        class Mod { run() { return "mod"; } }
        Tool("Mod.")(Mod.prototype, "run", Object.getOwnPropertyDescriptor(Mod.prototype, "run"));
        return Mod;
      })`,
      { filename: url },
    ) as (tool: typeof Tool) => Function;
    expect(definingFileOf(define(Tool).prototype)).toBe("/srv/app/dist/tools.mjs");
  });

  it("is unknown for code without a file (eval), and recorded once per class", () => {
    const define = runInThisContext(`(function (Tool) {
      class Evaluated { a() {} b() {} }
      for (const key of ["a", "b"]) Tool("Evaluated.")(Evaluated.prototype, key, Object.getOwnPropertyDescriptor(Evaluated.prototype, key));
      return Evaluated;
    })`) as (tool: typeof Tool) => Function;
    const Evaluated = define(Tool);
    expect(definingFileOf(Evaluated.prototype)).toBeUndefined();
    // A later @Tool on the same class, from another file, does not move it.
    Tool("Evaluated.")(Evaluated.prototype, "a", Object.getOwnPropertyDescriptor(Evaluated.prototype, "a")!);
    expect(definingFileOf(Evaluated.prototype)).toBeUndefined();
  });
});
