import type { Config } from "jest";

/**
 * Three projects, told apart by file name:
 * - `unit` (*.test.ts): in the test process alone, no build, no child process, no server on a port,
 *   no tarball, no compiler run; `npm run test:unit` is this project alone (jest.unit.config.ts,
 *   so `npm run test:unit -- <paths or flags>` hands them to jest), the inner loop.
 * - `properties` (*.property.test.ts): seeded suites over thousands of generated cases (fuzz,
 *   the round-trip law, 1,000 concurrent calls): in-process, but each takes tens of seconds.
 * - `integration` (*.integration.test.ts): child processes (the CLI, npm, tsc), servers on a
 *   port (MCP over HTTP, mock provider APIs), the built and
 *   packed package in consumer projects, Redis, and the TypeScript compiler run over fixture
 *   projects (generate).
 * `npm test` runs all three.
 */
type ProjectOptions = Exclude<NonNullable<Config["projects"]>[number], string>;

const shared: ProjectOptions = {
  testEnvironment: "node",
  rootDir: ".",
  roots: ["<rootDir>/test"],
  transform: {
    // Classes compiled with standard (TC39) decorators, as TypeScript 5+ and esbuild do without experimentalDecorators.
    "/test/decorators/standard/.+\\.ts$": "<rootDir>/test/support/jest/standard-decorators-transform.js",
    // tsconfig's isolatedModules: ts-jest only transpiles each file (fast); type checking runs
    // once for the whole project in `npm run typecheck`. Decorator metadata is still emitted.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
    // arktype and jose ship ES modules only: their files are compiled to CommonJS like the tests
    // (Node itself requires them as ES modules; Jest's module loader on Node 20 does not).
    "/node_modules/(arktype|arkregex|@ark/[^/]+|jose)/.+\\.js$": [
      "ts-jest",
      { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022", isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ["/node_modules/(?!(arktype|arkregex|@ark/[^/]+|jose)/)"],
  // Before each test file, in every project: environment the code under test reads when it loads.
  setupFiles: ["<rootDir>/test/support/jest/aws-sdk-node-notice.ts"],
  // Tests exercise the source; the integration project checks the built package separately.
  moduleNameMapper: {
    "^toolnexus$": "<rootDir>/src/index.ts",
    "^toolnexus/nestjs$": "<rootDir>/src/nestjs/index.ts",
    "^toolnexus/mcp$": "<rootDir>/src/mcp/index.ts",
    "^toolnexus/openai-agents$": "<rootDir>/src/openai-agents/index.ts",
    "^toolnexus/ai-sdk$": "<rootDir>/src/ai-sdk/index.ts",
    "^toolnexus/langchain$": "<rootDir>/src/langchain/index.ts",
    "^toolnexus/bullmq$": "<rootDir>/src/bullmq/index.ts",
    "^toolnexus/providers$": "<rootDir>/src/providers/index.ts",
  },
};

export const unitProject: ProjectOptions = {
  ...shared,
  displayName: "unit",
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "\\.(integration|property)\\.test\\.ts$"],
  setupFilesAfterEnv: [
    "<rootDir>/test/support/jest/async-local-storage-cleanup.ts",
    "<rootDir>/test/support/jest/in-process-only.ts",
    "<rootDir>/test/support/jest/unit-timeout.ts",
  ],
};

export const propertiesProject: ProjectOptions = {
  ...shared,
  displayName: "properties",
  testMatch: ["**/*.property.test.ts"],
  setupFilesAfterEnv: [
    "<rootDir>/test/support/jest/async-local-storage-cleanup.ts",
    "<rootDir>/test/support/jest/in-process-only.ts",
    "<rootDir>/test/support/jest/long-timeout.ts",
  ],
};

export const integrationProject: ProjectOptions = {
  ...shared,
  displayName: "integration",
  testMatch: ["**/*.integration.test.ts"],
  setupFilesAfterEnv: [
    "<rootDir>/test/support/jest/async-local-storage-cleanup.ts",
    "<rootDir>/test/support/jest/long-timeout.ts",
  ],
  globalSetup: "<rootDir>/test/support/jest/integration-global-setup.ts",
  globalTeardown: "<rootDir>/test/support/jest/integration-global-teardown.ts",
};

/** What every run shares, whichever projects it runs. */
export const runOptions = {
  // Many tests wait on child processes, sockets and timers: a worker per core keeps both busy.
  maxWorkers: "100%",
  testSequencer: "<rootDir>/test/support/jest/longest-projects-first-sequencer.js",
} satisfies Config;

const config: Config = { ...runOptions, projects: [unitProject, propertiesProject, integrationProject] };

export default config;
