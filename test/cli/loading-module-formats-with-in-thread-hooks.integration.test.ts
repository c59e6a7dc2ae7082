/**
 * Every case of loading-module-formats.integration.test.ts again, with the CLI on Node 24: there
 * its ES module hooks are `module.registerHooks`'s, in the main thread, where Node 20 runs
 * `module.register`'s on a thread of their own (and Node 26 deprecates `module.register`).
 */
import { nodeBinary } from "../support/node-binaries";

const machineCliNode = process.env.TOOLNEXUS_CLI_NODE;
beforeAll(async () => {
  process.env.TOOLNEXUS_CLI_NODE = await nodeBinary(24);
});
afterAll(() => {
  if (machineCliNode === undefined) delete process.env.TOOLNEXUS_CLI_NODE;
  else process.env.TOOLNEXUS_CLI_NODE = machineCliNode;
});

require("./loading-module-formats.integration.test");
