import type { Config } from "jest";

/**
 * Two projects: `unit` runs in the test process alone (no build, no child process, no real
 * server, no tarball: `npm run test:unit`, the inner loop); `integration` is every
 * *.integration.test.ts (the CLI, the built and packed package, consumer projects, Redis).
 * `npm test` runs both; jest.unit.config.ts is the unit project alone, so that
 * `npm run test:unit -- <paths or flags>` passes them on as jest's own.
 */
type ProjectOptions = Exclude<NonNullable<Config["projects"]>[number], string>;

const shared: ProjectOptions = {
  testEnvironment: "node",
  rootDir: ".",
  roots: ["<rootDir>/test"],
  transform: {
    // tsconfig's isolatedModules: ts-jest only transpiles each file (fast); type checking runs
    // once for the whole project in `npm run typecheck`. Decorator metadata is still emitted.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
    // arktype ships ES modules only: its files are compiled to CommonJS like the tests.
    "/node_modules/(arktype|arkregex|@ark/[^/]+)/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022", isolatedModules: true } }],
  },
  transformIgnorePatterns: ["/node_modules/(?!(arktype|arkregex|@ark/[^/]+)/)"],
  // Tests exercise the source; the integration project checks the built package separately.
  moduleNameMapper: {
    "^toolnexus$": "<rootDir>/src/index.ts",
    "^toolnexus/nestjs$": "<rootDir>/src/nestjs/index.ts",
    "^toolnexus/mcp$": "<rootDir>/src/mcp/index.ts",
    "^toolnexus/openai-agents$": "<rootDir>/src/openai-agents/index.ts",
    "^toolnexus/ai-sdk$": "<rootDir>/src/ai-sdk/index.ts",
    "^toolnexus/langchain$": "<rootDir>/src/langchain/index.ts",
    "^toolnexus/bullmq$": "<rootDir>/src/bullmq/index.ts",
  },
};

export const unitProject: ProjectOptions = {
  ...shared,
  displayName: "unit",
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "\\.integration\\.test\\.ts$"],
  setupFilesAfterEnv: ["<rootDir>/test/support/jest/unit-setup.ts"],
};

export const integrationProject: ProjectOptions = {
  ...shared,
  displayName: "integration",
  testMatch: ["**/*.integration.test.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/support/jest/integration-setup.ts"],
  globalSetup: "<rootDir>/test/support/jest/integration-global-setup.ts",
  globalTeardown: "<rootDir>/test/support/jest/integration-global-teardown.ts",
};

/** What every run shares, whichever projects it runs. */
export const runOptions = {
  // Many tests wait on child processes, sockets and timers: a worker per core keeps both busy.
  maxWorkers: "100%",
  testSequencer: "<rootDir>/test/support/jest/integration-first-sequencer.js",
} satisfies Config;

const config: Config = { ...runOptions, projects: [unitProject, integrationProject] };

export default config;
