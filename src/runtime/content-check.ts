import type { ToolContent } from "../core/types";
import { decodedSize } from "./base64";
import {
  describePart,
  formatBytes,
  MAX_CONTENT_BYTES,
  MAX_RESULT_CONTENT_BYTES,
  text,
  type UnsentContent,
} from "./content";
import { bytesProblem, mediaTypeProblem, shapedPart, type AnnotationProblem } from "./content-rules";

/** An annotation field of a part that was left out of it, as the result's `metadata.unsentAnnotations` lists it. */
export interface UnsentAnnotation extends AnnotationProblem {
  /** The part's position in the result's `content`. */
  index: number;
  type: ToolContent["type"];
}

/** The parts of a result as they are sent, with what was refused on the way. */
export interface CheckedContent {
  content: ToolContent[];
  /** The parts replaced by a text note, and why. */
  unsent: UnsentContent[];
  /** The annotation fields left out of parts that were kept, and why. */
  unsentAnnotations: UnsentAnnotation[];
}

/**
 * The parts of a result held to every rule (content-rules.ts), then to the size caps: each
 * part that breaks one replaced by a text note saying why (`[image not sent: ...]`), listed in
 * `unsent`; a part kept is sent as `shapedPart` made it (annotations that are not well formed
 * left out, listed in `unsentAnnotations`). A part's decoded bytes count against
 * `MAX_CONTENT_BYTES`, and the kept parts' bytes together, in order, against
 * `MAX_RESULT_CONTENT_BYTES`. Checking parts already checked changes nothing.
 */
export function checkedContent(parts: readonly ToolContent[]): CheckedContent {
  const unsent: UnsentContent[] = [];
  const unsentAnnotations: UnsentAnnotation[] = [];
  let total = 0;
  const content = parts.map((part, index): ToolContent => {
    const refuse = (reason: string, shown: ToolContent | undefined) => {
      const named = shown ?? part;
      const mimeType =
        "mimeType" in named && typeof named.mimeType === "string" && mediaTypeProblem(named.mimeType) === undefined
          ? { mimeType: named.mimeType.toLowerCase() }
          : {};
      unsent.push({ index, type: part.type, ...mimeType, reason });
      // A part that broke a rule is named by its kind alone: its fields are what was wrong.
      return text(`[${shown !== undefined ? describePart(shown) : kindOf(part)} not sent: ${reason}]`);
    };
    const shaped = shapedPart(part);
    if (!shaped.ok) return refuse(shaped.problem, undefined);
    const size = "data" in shaped.part ? decodedSize(shaped.part.data) : 0;
    if (size > MAX_CONTENT_BYTES)
      return refuse(`${formatBytes(size)} is over the ${formatBytes(MAX_CONTENT_BYTES)} a part may have`, shaped.part);
    const problem = bytesProblem(shaped.part);
    if (problem !== undefined) return refuse(problem, undefined);
    if (total + size > MAX_RESULT_CONTENT_BYTES) {
      return refuse(
        `${formatBytes(size)} more would take the result's parts over the ${formatBytes(MAX_RESULT_CONTENT_BYTES)} a ` +
          "result may carry",
        shaped.part,
      );
    }
    total += size;
    unsentAnnotations.push(...shaped.annotationProblems.map((dropped) => ({ index, type: part.type, ...dropped })));
    return shaped.part;
  });
  return { content, unsent, unsentAnnotations };
}

function kindOf(part: ToolContent): string {
  return part.type === "resource_link" ? "resource link" : part.type;
}
