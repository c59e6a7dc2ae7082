import type { DeclarationTokens, ExportDescription, ExportFormat, TokenMethod } from "../providers/exporters";

/** How many of the largest tools a budget failure names: enough to see where the tokens go. */
const LARGEST_NAMED = 3;
/** How many lossy changes a failure names before counting the rest. */
const LOSSY_NAMED = 3;

const METHOD_TEXT: Record<TokenMethod, string> = {
  o200k: "o200k",
  "o200k-estimate": "estimated with OpenAI's o200k",
  "characters-estimate": "estimated from characters; install gpt-tokenizer to count them",
};

const count = (n: number) => n.toLocaleString("en-US");

/** What the declarations cost, for the export's note: up front, and with every deferred tool declared. */
export function tokensText(tokens: DeclarationTokens): string {
  const deferred = tokens.tools.filter((tool) => tool.deferred === true).length;
  const method = METHOD_TEXT[tokens.method];
  if (deferred === 0) return `${count(tokens.declared)} tokens (${method})`;
  const saving = Math.round(tokens.deferredSaving * 100);
  return (
    `${count(tokens.declared)} tokens up front (${method}), ${count(tokens.allDeclared)} with the ${deferred} ` +
    `deferred tool${deferred === 1 ? "" : "s"} declared: deferring ${saving >= 0 ? `saves ${saving}%` : `costs ${-saving}% more`}`
  );
}

/**
 * Why an export fails `--budget`, in one line, or `undefined` when it passes: the declarations sent up front
 * take more tokens than the budget (naming the largest tools sent), or some change is lossy (naming tool and
 * pointer) and lossy changes are not allowed.
 */
export function budgetFailure(
  format: ExportFormat,
  report: ExportDescription,
  budget: number,
  allowLossy: boolean,
): string | undefined {
  const failures: string[] = [];
  const { tokens } = report;
  if (tokens.declared > budget) {
    const sent = tokens.tools.filter((tool) => tool.deferred !== true);
    const largest = [...sent]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, LARGEST_NAMED)
      .map((tool) => `${tool.tool} (${count(tool.tokens)})`);
    // With tools deferred, what the tools up front leave of the total is the search that finds the others.
    const search = tokens.declared - sent.reduce((total, tool) => total + tool.tokens, 0);
    if (sent.length < tokens.tools.length && search > 0) largest.push(`the tool search (${count(search)})`);
    failures.push(
      `the ${format} declarations take ${count(tokens.declared)} tokens (${METHOD_TEXT[tokens.method]}), over ` +
        `the budget of ${count(budget)}; the largest: ${largest.join(", ")}. Defer tools (defer: true), shorten ` +
        "their descriptions and schemas, or raise --budget",
    );
  }
  const lossy = report.changes.filter((change) => change.action === "lossy");
  if (lossy.length > 0 && !allowLossy) {
    const named = lossy
      .slice(0, LOSSY_NAMED)
      .map((change) => `${change.tool} ${change.pointer === "" ? "/" : change.pointer}`);
    const rest = lossy.length > LOSSY_NAMED ? ` and ${lossy.length - LOSSY_NAMED} more` : "";
    failures.push(
      `${lossy.length} lossy change${lossy.length === 1 ? "" : "s"} for ${format} (values the tool takes that ` +
        `cannot be sent as such): ${named.join(", ")}${rest}. Change those schemas, or accept it with --allow-lossy`,
    );
  }
  return failures.length === 0 ? undefined : `${failures.join("; and ")}.`;
}
