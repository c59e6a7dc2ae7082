// toolnexus/layers: a module imports only its own layer and the layers below it.
//
// The layer table is data, given as the rule's options (eslint.config.mjs holds it):
//
//   { root, scope, layers: [{ name, folders, reaches?, apart? }, ...] }   (bottom layer first)
//
// - `folders`: paths relative to `root`, each a folder (everything under it) or a file.
// - `reaches`: the highest layer this one may import; itself by default.
// - `apart`: the layer's folders are separate units (the edges): one may import another only
//   through that folder's public entry, its index.ts.
// - `scope`: the folder the table covers (src). A module under it that is in no layer is an
//   error too, so a new folder cannot slip past the table.
//
// Every way a module names another is checked alike, type-only or not: `import` (and
// `import type`), `export ... from`, `import()`, `require()`, `require.resolve()`,
// `import x = require()` and `typeof import()` types. Specifiers are resolved as
// import-x resolves them (settings "import-x/resolver-next": the TypeScript resolver, so
// relative paths and the tsconfig `toolnexus` aliases count); what resolves outside `scope`
// (node_modules, node: builtins, a lazily required optional peer) is not checked. A relative
// specifier that does not resolve is judged by its path as written. Specifiers that are not
// string literals (require(variable)) cannot be checked.
import path from "node:path";
import { resolve as resolveWithImportX } from "eslint-plugin-import-x/utils";

const EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** A path relative to the root, with / separators and no script extension. */
function key(root, absolute) {
  return path.relative(root, absolute).split(path.sep).join("/").replace(EXTENSION, "");
}

/** The layer table, ready to look paths up in. */
function compile({ root, scope, layers }) {
  const index = new Map(layers.map((layer, i) => [layer.name, i]));
  const units = layers.flatMap((layer, level) =>
    layer.folders.map((entry) => {
      const folder = entry.replace(/\/$/, "");
      // `shown` is how messages name it: src/runtime/ for a folder, src/index.ts for a file.
      return {
        layer,
        level,
        key: folder.replace(EXTENSION, ""),
        shown: EXTENSION.test(folder) ? folder : `${folder}/`,
      };
    }),
  );
  // The longest folder first, so that a folder nested in another's is found before it.
  units.sort((a, b) => b.key.length - a.key.length);
  return {
    root,
    scope,
    layers,
    /** The highest level each layer may import. */
    reach: layers.map((layer, i) => {
      if (layer.reaches !== undefined && !index.has(layer.reaches))
        throw new Error(`toolnexus/layers: layer "${layer.name}" reaches "${layer.reaches}", which is no layer.`);
      return layer.reaches === undefined ? i : index.get(layer.reaches);
    }),
    unitOf(absolute) {
      const at = key(root, absolute);
      return units.find((unit) => at === unit.key || at.startsWith(`${unit.key}/`));
    },
    inScope(absolute) {
      const at = key(root, absolute);
      return at === scope || at.startsWith(`${scope}/`);
    },
  };
}

/** The layers a layer may import, for messages: `layer "core"`, `layers "core" to "runtime"`. */
function span(table, level) {
  const [first, top] = [table.layers[0].name, table.layers[table.reach[level]].name];
  return first === top ? `layer "${first}"` : `layers "${first}" to "${top}"`;
}

/** Where a shared piece may go, for messages: `"runtime" or a layer below it`, or `"core"` at the bottom. */
function down(table, level) {
  return level === 0 ? `"${table.layers[0].name}"` : `"${table.layers[level].name}" or a layer below it`;
}

/** A path relative to the root as messages show it: src/mcp/http.ts. */
function shown(root, absolute) {
  return path.relative(root, absolute).split(path.sep).join("/");
}

/** The string a specifier node holds, if it is a literal one. */
function literal(node) {
  if (node?.type === "Literal" && typeof node.value === "string") return node.value;
  if (node?.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

const cache = new WeakMap();

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: {
      description:
        "A module imports only its own layer and the layers below it; an edge reaches another edge only through its index.ts.",
    },
    schema: [
      {
        type: "object",
        required: ["root", "scope", "layers"],
        additionalProperties: false,
        properties: {
          root: { type: "string" },
          scope: { type: "string" },
          layers: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              required: ["name", "folders"],
              additionalProperties: false,
              properties: {
                name: { type: "string" },
                folders: { type: "array", minItems: 1, items: { type: "string" } },
                reaches: { type: "string" },
                apart: { type: "boolean" },
              },
            },
          },
        },
      },
    ],
    messages: {
      upward:
        'Layer "{{fromLayer}}" ({{from}}) may not import layer "{{toLayer}}" ({{to}}), which is above it: "{{fromLayer}}" may import {{allowed}} only. ' +
        "Move the shared piece down to {{down}}, or depend on {{allowed}} instead.",
      internals:
        'Layer "{{layer}}": {{from}} may import {{toFolder}} only through its public entry {{entry}}, not {{to}}. ' +
        "Import it from {{entry}} (export it there only if it is fit for users), or move the shared piece down to {{down}} and depend on that instead.",
      unlisted:
        '{{path}} is in no layer: add its folder to the layer table of the "toolnexus/layers" block in eslint.config.mjs.',
    },
  },

  create(context) {
    const options = context.options[0];
    let table = cache.get(options);
    if (table === undefined) cache.set(options, (table = compile(options)));
    const { root } = table;

    const filename = context.physicalFilename;
    if (!table.inScope(filename)) return {};
    const from = table.unitOf(filename);
    if (from === undefined) {
      return {
        Program: (node) => context.report({ node, messageId: "unlisted", data: { path: shown(root, filename) } }),
      };
    }
    const reach = table.reach[from.level];

    function check(node) {
      const specifier = literal(node);
      if (specifier === undefined) return;
      const resolved =
        resolveWithImportX(specifier, context) ??
        (specifier.startsWith(".") ? path.resolve(path.dirname(filename), specifier) : undefined);
      if (!resolved || !table.inScope(resolved)) return;
      const to = table.unitOf(resolved);
      if (to === undefined) {
        context.report({ node, messageId: "unlisted", data: { path: shown(root, resolved) } });
      } else if (to.level > reach) {
        const data = {
          fromLayer: from.layer.name,
          from: from.shown,
          toLayer: to.layer.name,
          to: shown(root, resolved),
          allowed: span(table, from.level),
          down: down(table, reach),
        };
        context.report({ node, messageId: "upward", data });
      } else if (
        to.level === from.level &&
        from.layer.apart &&
        to !== from &&
        ![`${to.key}/index`, to.key].includes(key(root, resolved))
      ) {
        const data = {
          layer: from.layer.name,
          from: from.shown,
          toFolder: to.shown,
          entry: `${to.shown}index.ts`,
          to: shown(root, resolved),
          down: down(table, Math.max(0, from.level - 1)),
        };
        context.report({ node, messageId: "internals", data });
      }
    }

    const isRequire = (callee) => callee.type === "Identifier" && callee.name === "require";
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression(node) {
        const { callee } = node;
        const resolving =
          callee.type === "MemberExpression" &&
          isRequire(callee.object) &&
          callee.property.type === "Identifier" &&
          callee.property.name === "resolve";
        if (isRequire(callee) || resolving) check(node.arguments[0]);
      },
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === "TSExternalModuleReference" && check(node.moduleReference.expression),
      // `typeof import("x")`: typescript-eslint 8 keeps the specifier in `argument` (a literal type).
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
    };
  },
};
