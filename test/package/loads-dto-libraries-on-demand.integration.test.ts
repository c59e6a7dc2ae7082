import { execFileSync } from "node:child_process";
import { join } from "node:path";

// The built package, loaded by name in a fresh process: what `require("toolnexus")` loads,
// and what it loads later, only when a DTO or a format needs it.
const root = join(__dirname, "..", "..");
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

const ON_DEMAND = [
  "class-validator",
  "class-transformer",
  "class-validator-jsonschema",
  "libphonenumber-js",
  "ajv-formats",
];

/** Prints, as JSON, which of the on-demand packages `require.cache` holds at each step. */
const steps = (load: string) => `
  ${load}
  const loaded = () => ${JSON.stringify(ON_DEMAND)}.filter((name) => Object.keys(require.cache).some((file) => file.includes("/node_modules/" + name + "/")));
  const seen = { imported: loaded() };

  const plain = tn.defineTool({
    name: "echo",
    description: "Echoes a word",
    inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    validate: true,
    execute: ({ word }) => word,
  });
  (async () => {
    await plain.execute({ word: "hi" });
    seen.plainToolRun = loaded();
    const withFormat = tn.defineTool({
      name: "mail",
      description: "Mails someone",
      inputSchema: { type: "object", properties: { to: { type: "string", format: "email" } }, required: ["to"] },
      validate: true,
      execute: ({ to }) => "sent to " + to,
    });
    const badAddress = await withFormat.execute({ to: "nobody" });
    seen.formatValidated = loaded();

    // A DTO module imports class-validator itself (the same module instance toolnexus loads).
    const { IsEmail } = require("class-validator");
    class ContactDto {}
    IsEmail()(ContactDto.prototype, "email");
    class Contacts { add(contact) { return "added " + contact.email; } }
    tn.Tool("Adds a contact")(Contacts.prototype, "add", Object.getOwnPropertyDescriptor(Contacts.prototype, "add"));
    tn.Args(ContactDto)(Contacts.prototype, "add", 0);
    const kit = new tn.Toolkit([new Contacts()]);
    seen.dtoToolScanned = loaded();
    const added = await kit.execute("add", { email: "ada@example.com" });
    const refused = await kit.execute("add", { email: "ada" });
    console.log(JSON.stringify({ seen, badAddress: badAddress.isError, added: added.output, refused: refused.isError }));
  })();
`;

describe.each([
  ["require", ["-e", steps(`const tn = require("toolnexus");`)]],
  [
    "import",
    [
      "--input-type=module",
      "-e",
      steps(
        `import * as tn from "toolnexus"; import { createRequire } from "node:module"; const require = createRequire(import.meta.url);`,
      ),
    ],
  ],
])("the package loaded with %s", (_how, args) => {
  it("loads class-validator, class-transformer, class-validator-jsonschema, libphonenumber-js and ajv-formats only when a DTO or a format needs them", () => {
    const out = JSON.parse(node(args));
    expect(out.seen.imported).toEqual([]);
    expect(out.seen.plainToolRun).toEqual([]);
    expect(out.seen.formatValidated).toEqual(["ajv-formats"]);
    expect(out.seen.dtoToolScanned).toEqual(expect.arrayContaining(ON_DEMAND));
    expect(out).toMatchObject({ badAddress: true, added: "added ada@example.com", refused: true });
  });
});
