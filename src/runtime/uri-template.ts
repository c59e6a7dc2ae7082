/**
 * RFC 6570 URI templates read backwards: which URIs a template makes, and with which variables.
 * Simple (`{id}`), reserved (`{+path}`), fragment (`{#f}`), label (`{.ext}`), path segment
 * (`{/seg}`), path parameter (`{;p}`) and query (`{?q,page}`, `{&more}`) expressions; a prefix
 * (`{id:3}`) or explode (`{list*}`) modifier is matched as its whole value.
 */
export interface UriTemplate {
  readonly template: string;
  /** The variables, in the order they appear. */
  readonly variables: readonly string[];
  /** The variables of a URI the template makes (percent-decoded), or undefined. */
  match(uri: string): Record<string, string> | undefined;
}

interface Expression {
  operator: string;
  names: string[];
}

const EXPRESSION = /\{([+#./;?&]?)([^{}]*)\}/g;

export function parseUriTemplate(template: string): UriTemplate {
  const parts: Array<string | Expression> = [];
  let last = 0;
  for (const found of template.matchAll(EXPRESSION)) {
    parts.push(template.slice(last, found.index));
    const names = found[2]!.split(",").map((spec) => spec.replace(/(\*|:\d+)$/, "").trim());
    if (names.some((name) => !/^[A-Za-z0-9_.%]+$/.test(name)))
      throw new TypeError(`URI template ${JSON.stringify(template)}: "${found[0]}" is not a variable expression.`);
    parts.push({ operator: found[1]!, names });
    last = found.index + found[0].length;
  }
  parts.push(template.slice(last));
  if (/[{}]/.test(parts.filter((part) => typeof part === "string").join("")))
    throw new TypeError(`URI template ${JSON.stringify(template)} has an unclosed or stray brace.`);
  const variables = parts.flatMap((part) => (typeof part === "string" ? [] : part.names));
  const duplicate = variables.find((name, index) => variables.indexOf(name) !== index);
  if (duplicate !== undefined)
    throw new TypeError(`URI template ${JSON.stringify(template)} names the variable "${duplicate}" twice.`);

  const captures: Array<{ operator: string; names: string[] }> = [];
  let source = "^";
  for (const part of parts) {
    if (typeof part === "string") {
      source += escapeRegExp(part);
      continue;
    }
    captures.push(part);
    source += patternOf(part);
  }
  const pattern = new RegExp(`${source}$`);
  return {
    template,
    variables,
    match(uri) {
      const found = pattern.exec(uri);
      if (found === null) return undefined;
      const values: Record<string, string> = {};
      try {
        captures.forEach((expression, index) => {
          const raw = found[index + 1];
          if (raw !== undefined) Object.assign(values, valuesOf(expression, raw));
        });
      } catch {
        return undefined; // a malformed percent-encoding
      }
      return values;
    },
  };
}

/** What one expression's expansion looks like, as one capture group. */
function patternOf({ operator }: Expression): string {
  switch (operator) {
    case "":
      return "([^/?#]*)";
    case "+":
      return "([^?#]*)";
    case "#":
      return "(?:#(.*))?";
    case ".":
      return "((?:\\.[^/?#.]*)*)";
    case "/":
      return "((?:/[^/?#]*)*)";
    case ";":
      return "((?:;[^/?#;]*)*)";
    default: // "?" and "&": the rest of the query
      return operator === "?" ? "(?:\\?([^#]*))?" : "((?:&[^#]*)?)";
  }
}

function valuesOf({ operator, names }: Expression, raw: string): Record<string, string> {
  if (operator === "?" || operator === "&" || operator === ";") {
    const values: Record<string, string> = {};
    for (const pair of raw.split(operator === ";" ? ";" : "&")) {
      if (pair === "") continue;
      const equals = pair.indexOf("=");
      const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
      if (names.includes(name)) values[name] = equals < 0 ? "" : decodeURIComponent(pair.slice(equals + 1));
    }
    return values;
  }
  const separator = operator === "." ? "." : operator === "/" ? "/" : ",";
  const body = operator === "." || operator === "/" ? raw.slice(1) : raw;
  // A label or path segment expression that expanded to nothing left no "." or "/": its variable is absent.
  if (names.length === 1)
    return raw === "" && (operator === "." || operator === "/") ? {} : { [names[0]!]: decode(body, operator) };
  const pieces = body.split(separator);
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    if (pieces[index] !== undefined) values[name] = decode(pieces[index]!, operator);
  });
  return values;
}

/** Reserved and fragment expansions keep reserved characters as they are; the others percent-encode them. */
function decode(value: string, operator: string): string {
  return operator === "+" || operator === "#" ? decodeURI(value) : decodeURIComponent(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
