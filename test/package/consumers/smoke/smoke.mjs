// The package from an ES module: named imports, the default import (the CommonJS module object), import.meta.resolve of every entry point.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import toolnexusDefault, { Adapters, defineTool, Toolkit } from "toolnexus";
import * as providers from "toolnexus/providers";
import roundTripModule from "./round-trip.cjs";

const { entryPoints, projectRelative, roundTrip } = roundTripModule;
const specifiers = entryPoints(createRequire(import.meta.url)("toolnexus/package.json"));
const checked = await roundTrip({ Adapters, defineTool, Toolkit });
console.log(
  JSON.stringify({
    resolved: Object.fromEntries(
      specifiers.map((specifier) => [specifier, projectRelative(fileURLToPath(import.meta.resolve(specifier)))]),
    ),
    providersRuntimeExports: Object.keys(providers).filter((name) => name !== "default"),
    defaultIsTheModule: toolnexusDefault.Toolkit === Toolkit,
    ...checked,
  }),
);
