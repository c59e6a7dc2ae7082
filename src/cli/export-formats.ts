import type { ExportFormat } from "../providers";

/**
 * The formats `toolnexus export --format` offers, in the providers' order: listed here so that
 * the option (and `--help`) does not load the providers. The check below fails to compile when
 * a provider format is missing; test/cli/export-formats.test.ts checks the order.
 */
export const EXPORT_FORMATS = ["gemini", "openai", "openai-responses", "anthropic", "mcp", "bedrock"] as const satisfies readonly ExportFormat[];

type Unlisted = Exclude<ExportFormat, (typeof EXPORT_FORMATS)[number]>;
const _everyFormatListed: [Unlisted] extends [never] ? true : Unlisted = true;
