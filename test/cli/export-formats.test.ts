/** `toolnexus export --format` offers every provider format, in the providers' order (listed apart so help does not load them). */
import { EXPORT_FORMATS } from "../../src/cli/export-formats";
import { ADAPTERS } from "../../src/providers";

it("the --format choices are the providers' formats", () => {
  expect([...EXPORT_FORMATS]).toEqual(Object.keys(ADAPTERS));
});
