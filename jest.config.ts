import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Type checking runs once for the whole project (`npm run typecheck`), so each test file
    // is only transpiled here; decorator metadata is still emitted.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", isolatedModules: true }],
  },
  testTimeout: 30_000,
};

export default config;
