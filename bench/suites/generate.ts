/**
 * Build-time generation: `toolnexus generate` on a synthetic project of 200 tools in 50 files
 * (services with interfaces, literal unions, enums, arrays, Dates, optional and defaulted
 * parameters, JSDoc, class-validator DTOs), against `tsc --noEmit` on the same project: the
 * floor, since generation type-checks the project with one compiler program before it reads
 * the tools. Target: at most 2× that floor.
 *
 * Both run in this process (the command as `runGenerate`, writing the manifest; tsc as the
 * compiler API calls `tsc --noEmit` makes), interleaved round by round, a fresh program each
 * time; the figure is the median over rounds. When the package is built, the same comparison
 * is also made cold, as child processes (`node dist/cjs/cli/main.js generate` against
 * `node typescript/bin/tsc --noEmit`), which adds Node's and TypeScript's start-up to both.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as ts from "typescript";
import { runGenerate } from "../../src/cli/commands/generate";
import { median, row } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "generate";
const FILES = 50;
const TOOLS_PER_FILE = 4;
const ROOT = resolve(__dirname, "..", "..");
const TARGET = { text: "at most 2× tsc --noEmit", maxRatio: 2 };

export const run: BenchSuite = async ({ quick }) => {
  const dir = syntheticProject();
  try {
    const rows: BenchRow[] = [];
    const rounds = quick ? 3 : 7;
    const project = join(dir, "tsconfig.json");
    const silent = { write: () => true };
    const generateOnce = async () => {
      const code = await runGenerate({ project, quiet: true }, { stdout: silent, stderr: silent, cwd: dir });
      if (code !== 0) throw new Error(`toolnexus generate exited with ${code} on the synthetic project`);
    };
    // Warm both paths once (JIT, module loading), and check the project is what it claims.
    tscNoEmit(project);
    await generateOnce();
    const manifest = JSON.parse(readFileSync(join(dir, "toolnexus.manifest.json"), "utf8")) as { tools: Record<string, unknown> };
    const tools = Object.keys(manifest.tools).length;
    if (tools !== FILES * TOOLS_PER_FILE) throw new Error(`the synthetic project should have ${FILES * TOOLS_PER_FILE} tools; generate found ${tools}`);

    const generateMs: number[] = [];
    const tscMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs on a warmer heap.
      const order = round % 2 === 0 ? ["tsc", "generate"] : ["generate", "tsc"];
      for (const which of order) {
        const started = performance.now();
        if (which === "tsc") tscNoEmit(project);
        else await generateOnce();
        (which === "tsc" ? tscMs : generateMs).push(performance.now() - started);
      }
    }
    rows.push(
      row(
        {
          suite: SUITE,
          case: `toolnexus generate, ${tools} tools in ${FILES} files (in-process)`,
          value: median(generateMs),
          baseline: "tsc --noEmit, same project (in-process)",
          baselineValue: median(tscMs),
          unit: "ms",
        },
        TARGET,
      ),
    );

    const bin = join(ROOT, "dist", "cjs", "cli", "main.js");
    if (existsSync(bin)) {
      const coldRounds = quick ? 1 : 3;
      const coldGenerate: number[] = [];
      const coldTsc: number[] = [];
      for (let round = 0; round < coldRounds; round++) {
        coldTsc.push(timeProcess([require.resolve("typescript/bin/tsc"), "--noEmit", "-p", project], dir));
        coldGenerate.push(timeProcess([bin, "generate", "--quiet", "-p", project], dir));
      }
      rows.push(
        row(
          {
            suite: SUITE,
            case: `toolnexus generate, ${tools} tools in ${FILES} files (cold process)`,
            value: median(coldGenerate),
            baseline: "tsc --noEmit, same project (cold process)",
            baselineValue: median(coldTsc),
            unit: "ms",
          },
          TARGET,
        ),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** What `tsc --noEmit -p <project>` does: parse the config, build the program, collect every diagnostic. */
function tscNoEmit(project: string): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    project,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (parsed === undefined) throw new Error(`cannot read ${project}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(`the synthetic project does not type-check: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, "\n")}`);
}

function timeProcess(args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr || result.stdout}`);
  return elapsed;
}

/** 50 files of 4 tools each, a shared types file, and "toolnexus" as its declarations (as a user's project sees the package). */
export function syntheticProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-bench-generate-"));
  // Real packages (class-validator, @types/node) resolve from the repository's node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022"],
          module: "commonjs",
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          skipLibCheck: true,
          types: ["node"],
          baseUrl: ".",
          paths: { toolnexus: ["./toolnexus.d.ts"] },
        },
        include: ["src"],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, "toolnexus.d.ts"),
    `export interface ToolContext { callId?: string; provider?: string; state?: Record<string, unknown> }
export declare function Tool(descriptionOrOptions?: string | { name?: string; description?: string; timeout?: number }): MethodDecorator;
export declare function Param(nameOrOptions?: string | Record<string, unknown>, options?: Record<string, unknown>): ParameterDecorator;
export declare function Ctx(): ParameterDecorator;
export declare function Args(type?: Function): ParameterDecorator;
`,
  );
  writeFileSync(
    join(dir, "src", "shared.ts"),
    `/** A postal address. */
export interface Address {
  /** Street and number. */
  street: string;
  city: string;
  /** ISO 3166 country code. */
  country: "IN" | "US" | "DE" | "FR" | "JP";
  geo?: { lat: number; lon: number };
}

/** An amount of money. */
export type Money = { amount: number; currency: "EUR" | "USD" | "INR" };

export enum Status {
  Draft = "draft",
  Active = "active",
  Archived = "archived",
}
`,
  );
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(dir, "src", `service${i}.ts`),
      `import { IsInt, IsOptional, IsString, Max, Min } from "class-validator";
import { Args, Ctx, Param, Tool, type ToolContext } from "toolnexus";
import { Status, type Address, type Money } from "./shared";

/** Input of create_${i}. */
export class Create${i}Input {
  /** Display name. */
  @IsString()
  name!: string;

  /** How many, 1 to 100. */
  @IsInt()
  @Min(1)
  @Max(100)
  quantity!: number;

  /** Free text. */
  @IsOptional()
  @IsString()
  note?: string;
}

/** What list${i} matches. */
export interface Filter${i} {
  /** Text to match. */
  query: string;
  status?: Status[];
  /** Created after. */
  since?: Date;
  price?: { min?: Money; max?: Money };
}

export class Service${i} {
  /**
   * Lists records of kind ${i}.
   * @param filter What to match.
   * @param page Page number, from 1.
   */
  @Tool()
  list${i}(filter: Filter${i}, page = 1, sort: "name" | "created" | "price" = "name") {
    return { filter, page, sort };
  }

  /** Creates a record of kind ${i}. */
  @Tool({ name: "create_${i}" })
  create${i}(@Args() input: Create${i}Input) {
    return input.name;
  }

  /**
   * Ships a record to an address.
   * @param to Where to.
   */
  @Tool()
  ship${i}(id: string, to: Address, express?: boolean, @Ctx() ctx?: ToolContext) {
    return \`\${id} to \${to.city} \${express ? "express" : ""} \${ctx?.callId ?? ""}\`;
  }

  /** Tags a record. */
  @Tool()
  tag${i}(id: string, @Param("labels", { maxItems: 5 }) tags: string[], status: Status | null) {
    return { id, tags, status: status ?? Status.Draft };
  }
}
`,
    );
  }
  return dir;
}
