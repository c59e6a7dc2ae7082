import { isStandardContext, type DecoratorMode } from "./decorator-mode";
import { addPrimitiveMethod, addStandardPrimitiveMethod, type PrimitiveMethodRecord } from "./primitive-metadata";
import type { ToolDecorator } from "./tool.decorator";

type RecordOf = (propertyKey: string, mode: DecoratorMode) => PrimitiveMethodRecord;

/**
 * A method decorator for both kinds of decorators (standard and `experimentalDecorators`) that
 * records one primitive method; misuse throws naming the decorator, class and member.
 */
export function primitiveDecorator(label: string, recordOf: RecordOf): ToolDecorator {
  function decorate(target: unknown, key: unknown, descriptor?: PropertyDescriptor): void {
    if (isStandardContext(key)) {
      const name = String(key.name);
      if (key.kind !== "method" || typeof target !== "function")
        throw new TypeError(`${label} on ${key.kind} ${name}: ${label} goes on methods.`);
      if (typeof key.name === "symbol" || key.private)
        throw new TypeError(`${label} on ${name}: ${label} goes on public methods with string names.`);
      if (key.static) {
        key.addInitializer(function (this: unknown) {
          throw new TypeError(`${label} on static method ${(this as Function).name}.${name}: use an instance method.`);
        });
        return;
      }
      if (typeof key.metadata !== "object" || key.metadata === null)
        throw new TypeError(
          `${label} on ${name}: the compiler gave the decorator no context.metadata. Load toolnexus before the class ` +
            'is defined, or compile with decorator metadata support (or "experimentalDecorators": true).',
        );
      addStandardPrimitiveMethod(key.metadata, recordOf(name, "standard"));
      return;
    }
    const prototype = target as object;
    const className = typeof prototype === "function" ? prototype.name : prototype.constructor?.name;
    if (typeof key === "symbol" || typeof descriptor?.value !== "function")
      throw new TypeError(`${label} on ${className}.${String(key)}: ${label} goes on methods with string names.`);
    if (typeof prototype === "function")
      throw new TypeError(`${label} on static method ${className}.${String(key)}: use an instance method.`);
    addPrimitiveMethod(prototype, recordOf(key as string, "legacy"));
  }
  return decorate as ToolDecorator;
}
