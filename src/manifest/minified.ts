import { bodyAdjoinsParameters, sourceParameters, type SourceParameter } from "../schema/parameter-names";

/**
 * Minified code renames classes and parameters, and a manifest is matched by those names. A
 * minifier's names are one or two characters (`e`, `t`, `Ce`); so are a few real ones (`Db`,
 * `S3`, `id`), which is why the messages say "look minified" and what to do either way.
 */
export function looksMinified(name: string | undefined): boolean {
  return name !== undefined && /^[A-Za-z_$][\w$]?$/.test(name);
}

/**
 * Whether a method's own code shows a minifier's work, which a short name alone does not: its
 * body starts right at its parameter list (`forecast(e,t){`, which compilers and formatters
 * never write), or it has two or more parameters and every one's name looks minified.
 * `parameters` are the method's as its source names them.
 */
export function methodLooksMinified(
  method: Function,
  parameters: readonly SourceParameter[] = sourceParameters(method),
): boolean {
  if (parameters.length >= 2 && parameters.every((parameter) => looksMinified(parameter.name))) return true;
  return bodyAdjoinsParameters(method);
}

/** How to keep class names through the common minifiers. */
export const KEEP_CLASS_NAMES =
  "Keep class names when minifying: esbuild `keepNames: true`, terser `keep_classnames: true, keep_fnames: true`, " +
  "SWC `jsc.minify.keep_classnames` and `keep_fnames`, webpack " +
  "`new TerserPlugin({ terserOptions: { keep_classnames: true, keep_fnames: true } })`";

/**
 * How to keep parameter names: minifiers rename them even with the options that keep class
 * and function names, and regenerating the manifest cannot bring them back.
 */
export const KEEP_PARAMETER_NAMES =
  "Minifiers rename parameters even with esbuild `keepNames` or terser/SWC `keep_fnames`, and regenerating the " +
  "manifest cannot undo that: " +
  'name them in the code with @Param("name"), or turn identifier mangling off (esbuild `minifyIdentifiers: false`, ' +
  "terser and SWC `mangle: false`)";
