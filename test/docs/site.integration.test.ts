import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { patience } from "../support/time";

/**
 * The documentation site as a reader gets it: `npm run docs` builds it (TypeDoc's API reference,
 * then VitePress over docs/), a plain static file server serves docs/.vitepress/dist with no
 * rewrites, and Debian's Chromium (`.ci/run` installs it; never a downloaded browser) reads it:
 * every page reachable from the start page, every internal link and #anchor, the local search,
 * and a screenshot of the start page (test/docs/.artifacts/start-page.png, gitignored) to look at.
 */
const root = join(__dirname, "..", "..");
const dist = join(root, "docs", ".vitepress", "dist");
const artifacts = join(__dirname, ".artifacts");
const screenshot = join(artifacts, "start-page.png");
const CHROMIUM = "/usr/bin/chromium";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** A static file server with no fallbacks: a path is a file of dist/, a directory's index.html, or a 404. */
function serve(directory: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    let file: string;
    try {
      file = normalize(join(directory, decodeURIComponent(pathname)));
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (file !== directory && !file.startsWith(directory + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${pathname}`);
      return;
    }
    response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

function npmRunDocs(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "npm",
      ["run", "docs"],
      {
        cwd: root,
        timeout: patience(15 * 60_000),
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: "1" },
      },
      (error, stdout, stderr) => {
        if (error === null) resolve();
        else reject(new Error(`\`npm run docs\` failed (${error.message}):\n${`${stdout}\n${stderr}`.slice(-8_000)}`));
      },
    );
  });
}

interface Link {
  /** The page the link is on. */
  from: string;
  /** The href as written. */
  href: string;
  /** The target without its fragment. */
  target: string;
  /** The decoded fragment, if any. */
  anchor?: string;
}

interface Crawl {
  /** Every internal page visited, with the HTTP status of its load. */
  statuses: Map<string, number>;
  /** The element ids (and `a[name]`s) of each page that loaded. */
  ids: Map<string, Set<string>>;
  links: Link[];
  /** Requests the site made to anything but its own server (it must work offline). */
  external: Set<string>;
}

/** Whether a same-origin path is a page (navigated to) rather than a file (fetched). */
const isPage = (pathname: string): boolean => pathname.endsWith("/") || [".html", ""].includes(extname(pathname));

async function crawl(context: BrowserContext, origin: string): Promise<Crawl> {
  const result: Crawl = { statuses: new Map(), ids: new Map(), links: [], external: new Set() };
  const start = `${origin}/`;
  const queued = new Set([start]);
  const queue = [start];

  const visit = async (page: Page, url: string): Promise<void> => {
    const { pathname } = new URL(url);
    if (!isPage(pathname)) {
      const response = await context.request.get(url);
      result.statuses.set(url, response.status());
      return;
    }
    const response = await page.goto(url, { waitUntil: "load" });
    const status = response?.status() ?? 0;
    result.statuses.set(url, status);
    if (status !== 200) return;
    const ids = await page.$$eval("[id], a[name]", (elements) =>
      elements.flatMap((element) => [element.getAttribute("id") ?? "", element.getAttribute("name") ?? ""]),
    );
    // "" too: a bare "#" points to the top of the page.
    result.ids.set(url, new Set(ids));
    const hrefs = await page.$$eval("a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    for (const href of hrefs) {
      const resolved = new URL(href, url);
      if (resolved.origin !== origin) continue;
      const anchor = resolved.hash === "" ? undefined : decodeURIComponent(resolved.hash.slice(1));
      resolved.hash = "";
      const target = resolved.href;
      result.links.push({ from: url, href, target, anchor });
      if (!queued.has(target)) {
        queued.add(target);
        queue.push(target);
      }
    }
  };

  // A few tabs read the site side by side; each takes the next queued URL until none is left
  // and no other tab may still add one.
  let busy = 0;
  const worker = async (): Promise<void> => {
    const page = await context.newPage();
    try {
      for (;;) {
        const url = queue.shift();
        if (url === undefined) {
          if (busy === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        busy += 1;
        try {
          await visit(page, url);
        } finally {
          busy -= 1;
        }
      }
    } finally {
      await page.close();
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return result;
}

describe("the documentation site (npm run docs, read in Chromium from a static file server)", () => {
  let server: Server | undefined;
  let origin = "";
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let site: Crawl;

  const path = (url: string): string => url.slice(origin.length);

  beforeAll(
    async () => {
      if (!existsSync(CHROMIUM)) {
        throw new Error(
          `${CHROMIUM} is missing: these tests read the documentation site in Debian's Chromium. Install it with \`apt-get install chromium\` (.ci/run does).`,
        );
      }
      await npmRunDocs();
      ({ server, origin } = await serve(dist));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(patience(30_000));
      context.setDefaultNavigationTimeout(patience(30_000));
      const external = new Set<string>();
      // Fully offline: nothing but the site's own server is ever asked for anything.
      await context.route(
        (url) => url.origin !== origin && url.protocol !== "data:" && url.protocol !== "blob:",
        (route) => {
          external.add(route.request().url());
          return route.abort();
        },
      );
      site = await crawl(context, origin);
      site.external = external;
    },
    patience(25 * 60_000),
  );

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it("serves every page reachable from the start page with status 200, the guides and the API reference among them", () => {
    const failed = [...site.statuses]
      .filter(([, status]) => status !== 200)
      .map(([url, status]) => `${path(url)} (${status})`);
    expect({ failed }).toEqual({ failed: [] });
    const pages = [...site.statuses.keys()].map(path);
    expect(pages).toContain("/");
    expect(pages.some((page) => page.startsWith("/guides/"))).toBe(true);
    expect(pages.some((page) => page.startsWith("/api/"))).toBe(true);
  });

  it("has no internal link to a missing page", () => {
    const broken = site.links
      .filter((link) => site.statuses.get(link.target) !== 200)
      .map((link) => `${path(link.from)}: ${link.href} -> ${path(link.target)} (${site.statuses.get(link.target)})`);
    if (broken.length > 0) {
      throw new Error(`${broken.length} internal link(s) lead to a missing page:\n${[...new Set(broken)].join("\n")}`);
    }
  });

  it("has every #anchor of an internal link as an element id on the page it links to", () => {
    const broken = site.links
      .filter((link) => link.anchor !== undefined && site.ids.has(link.target))
      .filter((link) => !site.ids.get(link.target)!.has(link.anchor!))
      .map((link) => `${path(link.from)}: ${link.href} (no id "${link.anchor}" on ${path(link.target)})`);
    if (broken.length > 0) {
      throw new Error(
        `${broken.length} internal link(s) point to a missing anchor:\n${[...new Set(broken)].join("\n")}`,
      );
    }
  });

  it("loads nothing from anywhere but its own server (it works offline)", () => {
    expect([...site.external]).toEqual([]);
  });

  it("finds toGemini with the local search, linking into the API reference or a guide", async () => {
    const page = await context!.newPage();
    try {
      await page.goto(`${origin}/`, { waitUntil: "load" });
      await page.locator(".VPNavBarSearch button").first().click();
      const input = page.locator("#localsearch-input");
      await input.fill("toGemini");
      const results = page.locator(".VPLocalSearchBox a.result");
      await results.first().waitFor();
      const hrefs = await results.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
      const texts = await results.allInnerTexts();
      expect(texts.join("\n")).toContain("toGemini");
      expect(hrefs.some((href) => /^\/(api|guides)\//.test(new URL(href, origin).pathname))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("shows a start page worth reading, saved as test/docs/.artifacts/start-page.png", async () => {
    const page = await context!.newPage();
    try {
      await page.goto(`${origin}/`, { waitUntil: "networkidle" });
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: screenshot });
    } finally {
      await page.close();
    }
    expect(existsSync(screenshot)).toBe(true);
    // A blank or unstyled page compresses to a few kilobytes; a rendered one is far larger.
    expect(statSync(screenshot).size).toBeGreaterThan(30_000);
  });
});
