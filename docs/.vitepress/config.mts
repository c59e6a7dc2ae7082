import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type DefaultTheme } from "vitepress";

/** The guides, in reading order (docs/guides/<file>). */
const guides: DefaultTheme.SidebarItem[] = [
  ["defining-tools", "Defining tools"],
  ["providers-and-dialects", "Providers and dialects"],
  ["agent-loop", "The agent loop and failure as data"],
  ["results", "Results beyond text"],
  ["controlling-calls", "Controlling calls"],
  ["frameworks", "Frameworks"],
  ["nestjs", "NestJS"],
  ["mcp", "MCP"],
  ["cli", "The CLI and generate"],
  ["scaling-out", "Scaling out"],
  ["reliability", "Reliability"],
  ["performance", "Performance"],
].map(([file, text]) => ({ text, link: `/guides/${file}` }));

/**
 * The API reference's sidebar, as TypeDoc (typedoc-vitepress-theme) writes it beside the
 * generated pages: one collapsed group per entry point. `npm run docs` runs TypeDoc first.
 */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = fileURLToPath(new URL("../api/typedoc-sidebar.json", import.meta.url));
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: run \`npm run docs\` (TypeDoc writes the API reference before VitePress builds).`,
    );
  }
  return JSON.parse(readFileSync(file, "utf8")) as DefaultTheme.SidebarItem[];
}

/**
 * The guides link to runnable examples as repository files (`../../examples/agent-loop.ts`),
 * which read well on GitHub but are not pages: each .ts file under examples/ becomes a generated page,
 * docs/examples/<path>.md (gitignored), showing its source, and those links are rewritten to it
 * (so a static file server never has to serve a .ts file, which many would label as video).
 */
function examplePages(): void {
  const repository = fileURLToPath(new URL("../../", import.meta.url));
  const source = join(repository, "examples");
  const pages = join(repository, "docs", "examples");
  rmSync(pages, { recursive: true, force: true });
  for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const name = relative(source, file);
    const page = join(pages, name.replace(/\.ts$/, ".md"));
    mkdirSync(dirname(page), { recursive: true });
    const code = readFileSync(file, "utf8");
    writeFileSync(page, `# examples/${name}\n\n\`\`\`\`\`ts\n${code}${code.endsWith("\n") ? "" : "\n"}\`\`\`\`\`\n`);
  }
}
examplePages();

/** `../../examples/x.ts` (relative to a guide, as in the repository) -> the page of examples/x.ts. */
const EXAMPLE_LINK = /^(?:\.\.\/)+examples\/(.+)\.ts(#.*)?$/;

const sidebar: DefaultTheme.SidebarItem[] = [
  { text: "Guides", items: guides },
  { text: "API reference", link: "/api/", collapsed: false, items: apiSidebar() },
];

export default defineConfig({
  title: "toolnexus",
  description:
    "Turn TypeScript service classes into LLM tools: decorators, precise JSON Schemas, every provider's declarations, and a failure-as-data runtime.",
  lang: "en-US",
  // Pages are written as <page>.html and linked as such: any plain static file server serves them.
  cleanUrls: false,
  // A link to a missing page fails the build.
  ignoreDeadLinks: false,
  lastUpdated: false,
  srcExclude: ["**/README.md"],
  markdown: {
    theme: { light: "github-light", dark: "github-dark" },
    config(md) {
      md.core.ruler.push("toolnexus-example-links", (state) => {
        for (const token of state.tokens) {
          for (const child of token.children ?? []) {
            const href = child.type === "link_open" ? child.attrGet("href") : null;
            const example = href === null ? null : EXAMPLE_LINK.exec(href);
            if (example) child.attrSet("href", `/examples/${example[1]}.md${example[2] ?? ""}`);
          }
        }
      });
    },
  },
  themeConfig: {
    nav: [
      { text: "Guides", link: "/guides/defining-tools", activeMatch: "^/guides/" },
      { text: "API reference", link: "/api/", activeMatch: "^/api/" },
    ],
    sidebar,
    outline: { level: [2, 3] },
    search: { provider: "local" },
    docFooter: { prev: "Previous", next: "Next" },
  },
});
