import { addParameterRecord } from "./metadata";

/** Injects the call's `ToolContext` (always an object). Not part of the tool's schema. */
export function Ctx(): ParameterDecorator {
  return (target, propertyKey, index) => addParameterRecord("@Ctx", target, propertyKey, index, { kind: "ctx" });
}
