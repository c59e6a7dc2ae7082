import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The core entry (src/index.ts and everything it imports) reads the manifest as plain JSON: it
 * never imports the TypeScript compiler, typescript-json-schema, or the generator edge. No entry
 * users import at run time does: typescript is an optional peer, for the CLI's .ts loader and
 * `toolnexus generate` only.
 */
const src = join(__dirname, "..", "..", "src");
const { exports: entries } = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(
      /(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\s+"([^"]+)"|require\(\s*"([^"]+)"\s*\)|import\(\s*"([^"]+)"\s*\)/g,
    ),
  ];
  return specifiers.map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4])!);
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** The files under src/ that `entry` imports, directly or not, and the packages they name. */
function reachedFrom(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [join(src, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) {
        const target = resolveLocal(file, specifier);
        if (target !== undefined) queue.push(target);
      } else packages.add(specifier);
    }
  }
  return { files: [...seen].map((file) => relative(src, file).split("\\").join("/")), packages: [...packages] };
}

const compilerPackages = (packages: string[]) =>
  packages.filter((name) => /^typescript(-json-schema)?(\/|$)/.test(name));

it("src/index.ts never reaches typescript, typescript-json-schema or src/generate", () => {
  const { files, packages } = reachedFrom("index.ts");
  expect(files).toContain("manifest/load.ts");
  expect(files).toContain("scanner/scan-tools.ts");
  expect(files.filter((file) => file.startsWith("generate/") || file.startsWith("cli/"))).toEqual([]);
  expect(compilerPackages(packages)).toEqual([]);
});

const subpaths = Object.keys(entries).filter((subpath) => subpath !== "." && !subpath.endsWith(".json"));

it.each(subpaths)(
  "the %s entry never reaches typescript, typescript-json-schema, src/generate or the CLI",
  (subpath) => {
    const { files, packages } = reachedFrom(`${subpath.slice(2)}/index.ts`);
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((file) => file.startsWith("generate/") || file.startsWith("cli/"))).toEqual([]);
    expect(compilerPackages(packages)).toEqual([]);
  },
);
