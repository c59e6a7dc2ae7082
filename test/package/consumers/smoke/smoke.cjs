// The package from CommonJS: require() of the root entry, and of the providers entry (types only: nothing at run time).
const { entryPoints, projectRelative, roundTrip } = require("./round-trip.cjs");

const specifiers = entryPoints(require("toolnexus/package.json"));
const toolnexus = require("toolnexus");
const providers = require("toolnexus/providers");

roundTrip(toolnexus).then((checked) =>
  console.log(
    JSON.stringify({
      resolved: Object.fromEntries(
        specifiers.map((specifier) => [specifier, projectRelative(require.resolve(specifier))]),
      ),
      providersRuntimeExports: Object.keys(providers),
      ...checked,
    }),
  ),
);
