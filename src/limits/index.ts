import { MAX_LISTED_TOOLS } from "../pipeline/unknown-tool";
import { DEFAULT_TIMEOUT_MS } from "../runtime/invoke";
import { MAX_CONTENT_BYTES, MAX_RESULT_CONTENT_BYTES } from "../runtime/content";
import { MAX_FILE_NAME } from "../runtime/content-rules";
import { MAX_ERROR_TEXT } from "../runtime/result";
import { PATTERN_INPUT_LIMIT } from "../runtime/validation";
import { RECURSION_DEPTH } from "../schema/lowering";
import { MAX_SCHEMA_SIZE } from "../schema/schema-size";

/**
 * The bounds every tool, call and result runs under, in one frozen object (`LIMITS.MAX_ERROR_TEXT`).
 * Each value is the one the code that enforces it uses: they are read, not set, here.
 */
export const LIMITS = Object.freeze({
  /**
   * A call's deadline in milliseconds (60 s) when neither the call (`ctx.timeout`), the tool nor the toolkit sets one
   * (`timeout`; `false` turns it off).
   */
  DEFAULT_TIMEOUT_MS,
  /**
   * The characters of one call's error text sent back to a model (4,096), thrown messages and returned error results
   * alike; longer text is cut, saying how much. Successful outputs are never cut.
   */
  MAX_ERROR_TEXT,
  /** The tool names an unknown-tool reply lists, the closest first (20); it says how many tools there are. */
  MAX_LISTED_TOOLS,
  /**
   * The decoded bytes of one binary content part: image, audio, file (10 MiB). A larger part is replaced by a note and
   * reported in `metadata.unsentContent`.
   */
  MAX_CONTENT_BYTES,
  /**
   * The decoded bytes of one result's binary parts together (20 MiB), counted in order, `data:` URLs as the bytes they
   * hold; text parts are not counted.
   */
  MAX_RESULT_CONTENT_BYTES,
  /** The characters of a file part's name (255). */
  MAX_FILE_NAME,
  /**
   * The characters of a string checked against a `pattern` when its schema sets no `maxLength` (16,384); a longer one
   * is refused as `invalid_arguments`.
   */
  PATTERN_INPUT_LIMIT,
  /**
   * How many times a recursive `$ref` is unfolded where a provider takes no references (Gemini's `parameters`: 3);
   * deeper levels are declared as any value.
   */
  RECURSION_DEPTH,
  /**
   * The characters of JSON text a schema may have once toolnexus inlines its `$ref`s (1,000,000); past it the tool is
   * refused, naming where.
   */
  MAX_SCHEMA_SIZE,
} as const);
