import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The core entry (src/index.ts and everything it imports) reads the manifest as plain JSON: it
 * never imports the TypeScript compiler, typescript-json-schema, or the generator edge.
 */
const src = join(__dirname, "..", "..", "src");

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

it("src/index.ts never reaches typescript, typescript-json-schema or src/generate", () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [join(src, "index.ts")];
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
  const files = [...seen].map((file) => relative(src, file).split("\\").join("/"));
  expect(files).toContain("manifest/load.ts");
  expect(files).toContain("scanner/scan-tools.ts");
  expect(files.filter((file) => file.startsWith("generate/") || file.startsWith("cli/"))).toEqual([]);
  expect([...packages].filter((name) => /^typescript(-json-schema)?(\/|$)/.test(name))).toEqual([]);
});
