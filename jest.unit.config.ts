import type { Config } from "jest";
import { runOptions, unitProject } from "./jest.config";

/** The inner loop (`npm run test:unit`): the unit project alone. */
const config: Config = { ...runOptions, ...unitProject };

export default config;
