import { addParameterRecord, type Constructor } from "./metadata";

/**
 * Receives the whole argument object as one DTO instance (class-transformer), validated with
 * class-validator. The class comes from the parameter's type, or is given: `@Args(OrderDto)`.
 */
export function Args(type?: Constructor): ParameterDecorator {
  return (target, propertyKey, index) =>
    addParameterRecord("@Args", target, propertyKey, index, { kind: "args", ...(type !== undefined ? { type } : {}) });
}
