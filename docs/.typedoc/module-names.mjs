// @ts-check
// TypeDoc names each entry point's module after its file path ("index", "mcp", ...). The API
// reference names them as a user imports them instead: `toolnexus`, `toolnexus/mcp`, ...
// (without editing src/ to add `@module` tags).
import { Converter, ReflectionKind } from "typedoc";

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      module.name = module.name === "index" ? "toolnexus" : `toolnexus/${module.name}`;
    }
  });
}
