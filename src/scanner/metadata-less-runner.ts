/**
 * The runner this process is under when it is one that compiles TypeScript with esbuild (or
 * its own compiler) and so never emits `design:paramtypes`: told by what each one leaves in the
 * process (vitest's `VITEST` variable, tsx's loader in the Node flags, Bun's version). Vite SSR
 * and plain esbuild bundles leave no trace; the message names them among the causes.
 */
export function metadataLessRunner(): "vitest" | "tsx" | "Bun" | undefined {
  if (process.env.VITEST !== undefined) return "vitest";
  if ((process.versions as Record<string, string | undefined>).bun !== undefined) return "Bun";
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  if (/[\\/]tsx[\\/]|(^|\s)(--import|--require|-r|--loader)[ =]tsx\b/.test(flags)) return "tsx";
  return undefined;
}

/** Why a runner leaves out the type metadata, for each runner `metadataLessRunner` tells. */
const WHY_UNDER: Record<NonNullable<ReturnType<typeof metadataLessRunner>>, string> = {
  vitest:
    "This process runs under vitest, whose compiler emits no decorator metadata (esbuild, up to vitest 4) or " +
    'emits it only when tsconfig.json sets "emitDecoratorMetadata" (Oxc, vitest 5 on Vite 8).',
  tsx: "This process runs under tsx, which compiles TypeScript without decorator metadata (esbuild never emits design:paramtypes).",
  Bun: "This process runs under Bun, which compiles TypeScript without decorator metadata (Bun's transpiler never emits design:paramtypes).",
};

const WHY_ANYWHERE =
  "This happens under runners that compile TypeScript with esbuild (tsx, vitest, Vite SSR, esbuild bundles) or " +
  "with Bun, which never emit decorator metadata, with swc or Babel without their metadata options, or when " +
  "`reflect-metadata` is not loaded.";

/** What to do when the type metadata a scan needs is missing, saying why it is, under this runner if known. */
export function missingMetadataFix(): string {
  const runner = metadataLessRunner();
  const why = runner === undefined ? WHY_ANYWHERE : WHY_UNDER[runner];
  return (
    `${why} Fix: run \`npx toolnexus generate\` and keep toolnexus.manifest.json next to the code ` +
    "(`npx toolnexus generate --watch` beside `vitest --watch` keeps it current), or give each parameter its type " +
    "(@Param({ type: String }), @Args(Dto)), or give the tool its whole input with @Tool({ input }); or compile " +
    'with tsc, ts-node or ts-jest and "emitDecoratorMetadata": true (swc: jsc.transform.decoratorMetadata)'
  );
}
