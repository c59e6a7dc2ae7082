import { toolMethodsOf } from "../decorators/metadata";

/**
 * What a function is, said where an instance of a decorated class was expected, with what to
 * pass instead: `new X()` for a class (the tools are bound to an instance, so the class alone
 * has nothing to call them on), `defineTool` for a plain function.
 */
export function functionInsteadOfInstance(value: Function): string {
  const name = value.name || "(anonymous)";
  if (toolMethodsOf((value as { prototype?: unknown }).prototype).length > 0)
    return `got the class ${name} itself: pass an instance, new ${name}()`;
  if (/^class\b/.test(Function.prototype.toString.call(value))) {
    return (
      `got the class ${name} itself, which has no @Tool methods: pass an instance of a class whose methods are ` +
      "decorated with @Tool"
    );
  }
  return (
    `got the function ${name}: make a function a tool with ` + "defineTool({ name, description, inputSchema, execute })"
  );
}
