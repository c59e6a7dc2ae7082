import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // tsconfig's isolatedModules: ts-jest only transpiles each file (fast); type checking runs
    // once for the whole project in `npm run typecheck`. Decorator metadata is still emitted.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
    // arktype ships ES modules only: its files are compiled to CommonJS like the tests.
    "/node_modules/(arktype|arkregex|@ark/[^/]+)/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022", isolatedModules: true } }],
  },
  transformIgnorePatterns: ["/node_modules/(?!(arktype|arkregex|@ark/[^/]+)/)"],
  // Tests exercise the source; test/package checks the built package separately.
  moduleNameMapper: {
    "^toolnexus$": "<rootDir>/src/index.ts",
    "^toolnexus/nestjs$": "<rootDir>/src/nestjs/index.ts",
    "^toolnexus/mcp$": "<rootDir>/src/mcp/index.ts",
    "^toolnexus/openai-agents$": "<rootDir>/src/openai-agents/index.ts",
    "^toolnexus/ai-sdk$": "<rootDir>/src/ai-sdk/index.ts",
    "^toolnexus/langchain$": "<rootDir>/src/langchain/index.ts",
    "^toolnexus/bullmq$": "<rootDir>/src/bullmq/index.ts",
  },
  testTimeout: 30_000,
};

export default config;
