import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // tsconfig's isolatedModules: ts-jest only transpiles each file (fast); type checking runs
    // once for the whole project in `npm run typecheck`. Decorator metadata is still emitted.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  // Tests exercise the source; test/package checks the built package separately.
  moduleNameMapper: {
    "^toolnexus$": "<rootDir>/src/index.ts",
    "^toolnexus/nestjs$": "<rootDir>/src/nestjs/index.ts",
    "^toolnexus/mcp$": "<rootDir>/src/mcp/index.ts",
    "^toolnexus/langchain$": "<rootDir>/src/langchain/index.ts",
  },
  testTimeout: 30_000,
};

export default config;
