// What both smoke scripts check, from whichever module system loaded toolnexus: every entry
// point of its package.json "exports" resolves, and a defined tool goes through a toolkit, its
// declarations for every provider, a call, a refused call, and a reply to an OpenAI assistant message.
const { relative } = require("node:path");

exports.entryPoints = (manifest) =>
  Object.keys(manifest.exports)
    .filter((subpath) => !subpath.endsWith(".json"))
    .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));

/** Resolved file paths, relative to the project: they say which build (dist/cjs or dist/esm) each module system gets. */
exports.projectRelative = (file) => relative(process.cwd(), file);

exports.roundTrip = async ({ defineTool, Toolkit, Adapters }) => {
  const weather = defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
    validate: true,
    execute: ({ city }) => `sunny in ${city}`,
  });
  const toolkit = new Toolkit([weather]);
  const completion = {
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Chennai"}' } },
          ],
        },
      },
    ],
  };
  return {
    exporters: Object.keys(Adapters).sort(),
    declaredNames: Object.fromEntries(
      Object.entries(Adapters).map(([exporter, declare]) => [
        exporter,
        JSON.stringify(declare([weather])).includes('"get_weather"'),
      ]),
    ),
    answered: await toolkit.execute("get_weather", { city: "Chennai" }),
    refused: (await toolkit.execute("get_weather", { city: 42 })).metadata,
    openaiReplies: await toolkit.runOpenAI(completion),
  };
};
