// API reports: the public surface of every entry point in package.json "exports", recorded by
// API Extractor in api/<name>.api.md from the built CommonJS declarations (dist/cjs). A change
// to what users can import shows up as a diff of these files in review.
//
//   node scripts/api-report.mjs           rewrite the reports (npm run api:update builds first)
//   node scripts/api-report.mjs --check   CI: exit 1 when a report differs from what is built
//
// API Extractor analyses one entry point per run, so each subpath gets its own configuration.
// Only the API report is written: no doc model, no .d.ts rollup, no tsdoc-metadata.json.
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const scriptPath = fileURLToPath(import.meta.url);
const packageJsonPath = join(root, "package.json");
const reportFolder = join(root, "api");
// Where API Extractor writes each fresh report before comparing it with api/ (gitignored).
const reportTempFolder = join(root, "node_modules", ".cache", "api-extractor");

const check = process.argv.includes("--check");
const unknown = process.argv.slice(2).filter((arg) => arg !== "--check");
if (unknown.length > 0) fail(`unknown argument ${unknown.join(" ")}. Usage: node scripts/api-report.mjs [--check]`);

const manifest = JSON.parse(readFileSync(packageJsonPath, "utf8"));

/** Each entry point: its subpath, the CommonJS declaration it resolves to, and its report's name. */
const entries = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== "./package.json")
  .map((subpath) => {
    const name = subpath === "." ? "" : subpath.slice("./".length);
    const declaration = name === "" ? "dist/cjs/index.d.ts" : `dist/cjs/${name}/index.d.ts`;
    const declared = manifest.exports[subpath]?.require?.types;
    if (declared !== undefined && declared.replace(/^\.\//, "") !== declaration)
      fail(
        `package.json exports["${subpath}"].require.types is ${declared}, not ./${declaration}: update ${relative(root, scriptPath)}.`,
      );
    return {
      subpath,
      specifier: name === "" ? manifest.name : `${manifest.name}/${name}`,
      declaration,
      report: name === "" ? manifest.name : `${manifest.name}-${name.replaceAll("/", "-")}`,
    };
  });

const missing = entries.filter((entry) => !existsSync(join(root, entry.declaration)));
if (missing.length > 0)
  fail(`${missing.map((entry) => entry.declaration).join(", ")} missing: run \`npm run build\` first.`);

/**
 * Messages. This codebase documents with JSDoc and marks no release stages, so API Extractor's
 * TSDoc and release-tag checks only produce noise; everything else stays on.
 * - ae-missing-release-tag: off. No export carries @public/@beta/@alpha/@internal: every export
 *   of an entry point is public, and the report marks each one `// @public` regardless.
 * - ae-forgotten-export (a type the API uses that the entry point does not export by name):
 *   a note in the report, not a failure. It is common here by design (the subpaths use the
 *   core's types; at the root the Tool interface shares its name with the @Tool decorator).
 *   With includeForgottenExports the report also holds each such type's declaration, so a
 *   change to one fails --check like a change to an exported name.
 * - ae-undocumented: off (API Extractor's default). Not every member has a doc comment; the
 *   report marks those "(undocumented)".
 * - TSDoc syntax (tsdoc-*): off. Our comments are JSDoc, not TSDoc: TSDoc takes a package name
 *   in prose (@opentelemetry/api) for a malformed tag and a code span broken across lines for
 *   a missing backtick. The report leaves doc comments out, so nothing in it depends on them.
 * - Anything else (TypeScript's diagnostics, API Extractor's other checks): reported, and it
 *   fails the run in both modes.
 */
const messages = {
  compilerMessageReporting: { default: { logLevel: "warning" } },
  extractorMessageReporting: {
    default: { logLevel: "warning" },
    "ae-missing-release-tag": { logLevel: "none" },
    "ae-undocumented": { logLevel: "none" },
    "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
  },
  tsdocMessageReporting: { default: { logLevel: "none" } },
};

/** API Extractor's configuration for one entry point (what an api-extractor.json would hold). */
function configFor(entry) {
  const mainEntryPointFilePath = join(root, entry.declaration);
  return {
    projectFolder: root,
    mainEntryPointFilePath,
    bundledPackages: [],
    newlineKind: "lf",
    enumMemberOrder: "by-name",
    compiler: {
      // API Extractor brings its own TypeScript; the project's tsconfig.json is for the sources
      // (tests, path aliases). The declarations are read as a CommonJS consumer reads them.
      overrideTsconfig: {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022"],
          module: "Node16",
          moduleResolution: "Node16",
          strict: true,
          esModuleInterop: true,
          experimentalDecorators: true,
          types: ["node"],
          // As in tsconfig.json: peers' declarations are theirs to check (ai, @openai/agents and
          // the MCP SDK name DOM types, and the README notes the SDK's TS1541 under node16).
          skipLibCheck: true,
        },
        files: [mainEntryPointFilePath],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder,
      reportTempFolder,
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages,
  };
}

mkdirSync(reportFolder, { recursive: true });
const changed = [];
let failed = false;
for (const entry of entries) {
  const reportPath = `api/${entry.report}.api.md`;
  const existed = existsSync(join(root, reportPath));
  const extractorConfig = ExtractorConfig.prepare({
    configObject: configFor(entry),
    configObjectFullPath: scriptPath,
    packageJsonFullPath: packageJsonPath,
  });
  const result = Extractor.invoke(extractorConfig, {
    localBuild: !check,
    // In CI the diff says what changed; it comes as a console-api-report-diff message.
    printApiReportDiff: check,
    messageCallback(message) {
      const { messageId } = message;
      if (messageId === "console-api-report-diff")
        console.error(message.text.replace(/^Changes to the API report:\s*/, ""));
      // Whether a report changed is said once per entry point below, in our words, and is not a
      // warning of its own (it would fail --check twice over); the version banner is noise.
      if (messageId === "console-preamble" || messageId.startsWith("console-api-report-"))
        message.logLevel = ExtractorLogLevel.None;
      if (
        message.logLevel === ExtractorLogLevel.None ||
        message.logLevel === ExtractorLogLevel.Verbose ||
        message.logLevel === ExtractorLogLevel.Info
      )
        message.handled = true;
    },
  });
  if (result.apiReportChanged) {
    changed.push(entry);
    const what = !existed
      ? check
        ? "is missing"
        : "written"
      : check
        ? "differs from the built API (diff above)"
        : "updated";
    console.error(`${entry.specifier}: ${reportPath} ${what}.`);
  }
  // Warnings fail both modes: with the noise turned off above, each one is a real problem, and
  // an update that passes locally must not fail in CI.
  if (result.errorCount + result.warningCount > 0) {
    failed = true;
    console.error(
      `${entry.specifier}: API Extractor reported ${result.errorCount} error(s) and ${result.warningCount} warning(s) (above).`,
    );
  }
}

// A report whose entry point is gone from package.json "exports".
const expected = new Set(entries.map((entry) => `${entry.report}.api.md`));
for (const file of readdirSync(reportFolder).filter((name) => name.endsWith(".api.md") && !expected.has(name))) {
  if (check) {
    changed.push({ specifier: `api/${file}` });
    console.error(`api/${file} names no entry point of package.json "exports".`);
  } else {
    rmSync(join(reportFolder, file));
    console.error(`api/${file} removed: no entry point of package.json "exports" has that name.`);
  }
}

if (check && changed.length > 0) {
  fail(
    `the public API changed (${changed.map((entry) => entry.specifier).join(", ")}). ` +
      "If the change is intended, run `npm run api:update` and commit the files it rewrites in api/.",
  );
}
if (failed) process.exit(1);
if (!check && changed.length === 0) console.log(`API reports up to date: ${entries.length} entry points.`);
if (check) console.log(`API reports match the build: ${entries.length} entry points.`);

function fail(text) {
  console.error(`api-report: ${text}`);
  process.exit(1);
}
