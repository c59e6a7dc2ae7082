import { execFileSync } from "node:child_process";
import { join } from "node:path";

// The built package, loaded by name in a fresh process: toolnexus never loads a schema
// library itself; a Standard Schema's own object does the work, and zod's converter is loaded
// only for a zod schema that writes no JSON Schema of its own.
const root = join(__dirname, "..", "..");
const LIBRARIES = ["zod", "valibot", "arktype", "@standard-schema/spec"];

const script = `
  const loaded = () => ${JSON.stringify(LIBRARIES)}.filter((name) => Object.keys(require.cache).some((file) => file.includes("/node_modules/" + name + "/")));
  const tn = require("toolnexus");
  const seen = { imported: loaded() };
  const handWritten = {
    "~standard": {
      version: 1,
      vendor: "acme",
      validate: (value) => (typeof value.city === "string" ? { value: { city: value.city.toUpperCase() } } : { issues: [{ message: "expected a string", path: ["city"] }] }),
      jsonSchema: { input: () => ({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }) },
    },
  };
  const tool = tn.defineTool({ name: "weather", description: "Weather.", inputSchema: handWritten, execute: ({ city }) => "sunny in " + city });
  (async () => {
    const ok = await tool.execute({ city: "oslo" });
    const refused = await tool.execute({ city: 3 });
    seen.handWrittenRun = loaded();
    console.log(JSON.stringify({ seen, ok: ok.output, refused: refused.output }));
  })();
`;

it("loads no schema library: a Standard Schema is used through its own object", () => {
  const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" }));
  expect(out).toEqual({
    seen: { imported: [], handWrittenRun: [] },
    ok: "sunny in OSLO",
    refused: 'Invalid arguments for tool "weather": "city": expected a string',
  });
});
