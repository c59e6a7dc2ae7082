/**
 * Every part is held to the same rules however it was made: by a helper (`image(...)`,
 * `audio(...)`, `file(...)`, `resourceLink(...)`), as a plain object a tool returns, as bytes, or
 * in a `ToolResult`'s `content`. A helper given bad input throws a TypeError naming itself (a
 * mistake at the call site); a part arriving in a result is refused into `metadata.unsentContent`,
 * replaced by a text note saying why (failure as data). Sizes count per part and per result.
 */
import fc from "fast-check";
import {
  audio,
  defineTool,
  file,
  image,
  LIMITS,
  resourceLink,
  toToolResult,
  type ToolContent,
  type ToolResult,
  type UnsentContent,
} from "toolnexus";

const { MAX_CONTENT_BYTES, MAX_FILE_NAME, MAX_RESULT_CONTENT_BYTES } = LIMITS;

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const JPEG = Buffer.from("ffd8ffe000104a464946", "hex");
const PDF = Buffer.from("%PDF-1.7\n", "latin1");
const HTML = Buffer.from("<!doctype html><script>alert(1)</script>");
const b64 = (bytes: Buffer) => bytes.toString("base64");

/** What a tool returning `parts` (as they are) answers. */
const returned = (...parts: unknown[]): ToolResult => toToolResult(parts);
/** The refusals of a result. */
const unsentOf = (result: ToolResult) => (result.metadata?.unsentContent ?? []) as UnsentContent[];
/** The one refusal of a result of one part, or undefined when the part was sent. */
const refusalOf = (part: unknown) => unsentOf(returned(part))[0];

/** `scheme:` written with mixed case, leading control characters or spaces, and tabs or line breaks inside (all of which URL parsers ignore). */
function disguised(scheme: string): fc.Arbitrary<string> {
  return fc
    .record({
      lead: fc.string({ unit: fc.constantFrom("\u0000", "\u0001", "\u001f", " ", "\t", "\n"), maxLength: 3 }),
      upper: fc.array(fc.boolean(), { minLength: scheme.length, maxLength: scheme.length }),
      breakAt:
        scheme.length > 1
          ? fc.option(fc.integer({ min: 1, max: scheme.length - 1 }), { nil: undefined })
          : fc.constant(undefined),
      breaker: fc.constantFrom("\t", "\n", "\r"),
    })
    .map(({ lead, upper, breakAt, breaker }) => {
      const cased = [...scheme].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join("");
      const broken = breakAt === undefined ? cased : `${cased.slice(0, breakAt)}${breaker}${cased.slice(breakAt)}`;
      return `${lead}${broken}:`;
    });
}

describe("image and file parts by URL", () => {
  it("are sent from https: and http: addresses, as the URL parser writes them", () => {
    expect(returned({ type: "image", url: "https://example.com/chart.png" }).content).toEqual([
      { type: "image", url: "https://example.com/chart.png" },
    ]);
    expect(returned({ type: "file", url: " HTTP://Example.com/a b.pdf", mimeType: "application/pdf" }).content).toEqual(
      [{ type: "file", url: "http://example.com/a%20b.pdf", mimeType: "application/pdf" }],
    );
    expect(image(new URL("https://example.com/chart.png"))).toEqual({
      type: "image",
      url: "https://example.com/chart.png",
    });
  });

  it("refuse every other scheme however it is written: javascript:, file: and any other", () => {
    const scheme = fc.oneof(
      fc.constantFrom("javascript", "vbscript", "file", "ftp", "blob", "gs"),
      fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/),
    );
    fc.assert(
      fc.property(
        scheme.filter((name) => !["http", "https", "data"].includes(name)).chain(disguised),
        fc.constantFrom("image", "file"),
        (written, type) => {
          const refusal = refusalOf({
            type,
            url: `${written}//example.com/x`,
            mimeType: type === "image" ? "image/png" : "application/pdf",
          });
          expect(refusal).toMatchObject({ index: 0, type });
          expect(refusal!.reason).toMatch(/by URL must be at an https:, http: or data: address|is not an absolute URL/);
        },
      ),
    );
    expect(refusalOf({ type: "image", url: "java\tscript:alert(1)" })!.reason).toBe(
      'an image by URL must be at an https:, http: or data: address (got a "javascript:" one)',
    );
    expect(() => image(new URL("javascript:alert(1)"))).toThrow(
      new TypeError('image(): an image by URL must be at an https:, http: or data: address (got a "javascript:" one).'),
    );
    expect(() => file(new URL("file:///etc/passwd"), "text/plain")).toThrow(
      new TypeError('file(): a file by URL must be at an https:, http: or data: address (got a "file:" one).'),
    );
  });

  it("refuse an address that is not an absolute URL", () => {
    expect(refusalOf({ type: "image", url: "/images/chart.png" })!.reason).toBe(
      'its url "/images/chart.png" is not an absolute URL',
    );
  });

  it("read a data: URL as the bytes it holds: sent inline, with the URL's type", () => {
    expect(returned({ type: "image", url: `data:image/png;base64,${b64(PNG)}` }).content).toEqual([image(PNG)]);
    expect(
      returned({ type: "file", url: "data:,month%2Ctotal%0A", mimeType: "text/csv", name: "t.csv" }).content,
    ).toEqual([file(Buffer.from("month,total\n"), "text/csv", "t.csv")]);
    expect(
      returned({ type: "image", url: `DATA:image/png;base64,${b64(PNG).replace(/(.{8})/g, "$1\n")}` }).content,
    ).toEqual([image(PNG)]);
  });

  it("count a data: URL against MAX_CONTENT_BYTES as bytes are counted (an 11 MiB one is not sent)", () => {
    const eleven = Buffer.alloc(11 * 1024 * 1024, 1);
    const result = returned({ type: "image", url: `data:image/png;base64,${b64(eleven)}` });
    expect(unsentOf(result)).toEqual([
      { index: 0, type: "image", mimeType: "image/png", reason: "11.0 MB is over the 10.0 MB a part may have" },
    ]);
    expect(result.content).toEqual([
      { type: "text", text: "[image/png image, 11.0 MB not sent: 11.0 MB is over the 10.0 MB a part may have]" },
    ]);
  });

  it("refuse a data: URL whose type is not the part's, not of its kind, or not a type at all", () => {
    expect(refusalOf({ type: "image", url: `data:image/jpeg;base64,${b64(PNG)}`, mimeType: "image/png" })!.reason).toBe(
      'its data: URL holds "image/jpeg" and the part says "image/png"',
    );
    expect(refusalOf({ type: "image", url: `data:text/html;base64,${b64(HTML)}` })!.reason).toBe(
      '"text/html" is not an image type; use file() for documents',
    );
    expect(refusalOf({ type: "image", url: "data:image/png;base64,not base64!" })!.reason).toBe(
      "its data: URL says base64, and its data is not base64",
    );
    expect(refusalOf({ type: "image", url: "data:,hello" })!.reason).toMatch(/^its data: URL names no mime type/);
    expect(() => image(new URL(`data:text/html;base64,${b64(HTML)}`))).toThrow(TypeError);
  });
});

describe("resource links", () => {
  it("keep the schemes MCP uses: file:, https: and custom ones, the URI as it was given", () => {
    for (const uri of [
      "file:///reports/q3 final.csv",
      "https://example.com/logs",
      "urn:isbn:0451450523",
      "git+ssh://repo/x",
      "my-app://Thing/1",
    ]) {
      expect(returned({ type: "resource_link", uri }).content).toEqual([{ type: "resource_link", uri }]);
      expect(resourceLink(uri)).toEqual({ type: "resource_link", uri });
    }
  });

  it("refuse javascript:, vbscript: and data: however they are written", () => {
    fc.assert(
      fc.property(fc.constantFrom("javascript", "vbscript", "data").chain(disguised), (written) => {
        const refusal = refusalOf({ type: "resource_link", uri: `${written}alert(1)`, name: "x" });
        expect(refusal).toMatchObject({ index: 0, type: "resource_link" });
        expect(refusal!.reason).toMatch(
          /must not be a (javascript|vbscript|data): address|control characters or spaces around it/,
        );
        expect(() => resourceLink(`${written}alert(1)`)).toThrow(TypeError);
      }),
    );
    expect(refusalOf({ type: "resource_link", uri: "JavaScript:alert(1)" })!.reason).toBe(
      "a resource link's uri must not be a javascript: address",
    );
  });

  it("refuse a URI with control characters or spaces around it, or one that is not absolute", () => {
    expect(refusalOf({ type: "resource_link", uri: "https://example.com/\u0000x" })!.reason).toMatch(
      /has control characters or spaces around it$/,
    );
    expect(refusalOf({ type: "resource_link", uri: " https://example.com/x" })!.reason).toMatch(
      /has control characters or spaces around it$/,
    );
    expect(refusalOf({ type: "resource_link", uri: "reports/q3.csv" })!.reason).toBe(
      'its uri "reports/q3.csv" is not an absolute URI',
    );
    expect(() => resourceLink("reports/q3.csv")).toThrow(
      new TypeError('resourceLink(): its uri "reports/q3.csv" is not an absolute URI.'),
    );
  });

  it("resourceLink() refuses details that are not strings", () => {
    expect(() => resourceLink("https://example.com", { name: 3 as unknown as string })).toThrow(
      "resourceLink(): name, mimeType and description must be strings when given.",
    );
  });
});

describe("mime types", () => {
  /** An RFC 6838 type or subtype name. */
  const restrictedName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,20}$/);

  it("are bare RFC 6838 type/subtype names, sent in lower case", () => {
    fc.assert(
      fc.property(restrictedName, restrictedName, (top, sub) => {
        const mimeType = `${top}/${sub}`;
        expect(returned({ type: "file", data: b64(PDF), mimeType }).content).toEqual([
          { type: "file", data: b64(PDF), mimeType: mimeType.toLowerCase() },
        ]);
      }),
    );
  });

  it("refuse anything else: line breaks, spaces, parameters, empty names, over 127 characters", () => {
    const bad = [
      "image/png\r\nX-Injected: 1",
      "image/png; charset=utf-8",
      "image/ png",
      "image/",
      "/png",
      "image",
      "image/png/x",
      "ima ge/png",
      ".image/png",
      `image/${"a".repeat(128)}`,
      "image/p\u00e9ng",
    ];
    for (const mimeType of bad) {
      expect(refusalOf({ type: "image", data: b64(PNG), mimeType })!.reason).toMatch(
        /^the mime type must look like "type\/subtype"/,
      );
      expect(() => image(PNG, mimeType)).toThrow(/^image\(\): the mime type must look like "type\/subtype"/);
      expect(unsentOf(returned({ type: "image", data: b64(PNG), mimeType }))[0]).not.toHaveProperty("mimeType");
    }
    expect(refusalOf({ type: "file", data: b64(PDF), mimeType: "text/csv; charset=utf-8" })!.reason).toContain(
      '"type/subtype", without parameters',
    );
  });

  it("must be of the part's kind: image/* for images, audio/* for audio", () => {
    expect(refusalOf({ type: "image", data: b64(PDF), mimeType: "application/pdf" })!.reason).toBe(
      '"application/pdf" is not an image type; use file() for documents',
    );
    expect(refusalOf({ type: "audio", data: b64(PNG), mimeType: "image/png" })!.reason).toBe(
      '"image/png" is not an audio type',
    );
  });
});

describe("bytes against their declared type", () => {
  it("refuse bytes of a recognized format under the name of another (PNG declared image/jpeg)", () => {
    expect(refusalOf({ type: "image", data: b64(PNG), mimeType: "image/jpeg" })!.reason).toBe(
      "its bytes are image/png, not image/jpeg",
    );
    expect(refusalOf({ type: "file", data: b64(JPEG), mimeType: "application/pdf" })!.reason).toBe(
      "its bytes are image/jpeg, not application/pdf",
    );
    expect(() => image(PNG, "image/webp")).toThrow(new TypeError("image(): its bytes are image/png, not image/webp."));
  });

  it("take the other names of a format (image/jpg for JPEG) and types nothing can be told from", () => {
    expect(refusalOf({ type: "image", data: b64(JPEG), mimeType: "image/jpg" })).toBeUndefined();
    expect(refusalOf({ type: "image", data: b64(Buffer.alloc(64, 7)), mimeType: "image/png" })).toBeUndefined();
    expect(refusalOf({ type: "file", data: b64(PNG), mimeType: "application/octet-stream" })).toBeUndefined();
  });

  it("refuse markup (HTML, XML, SVG) under an image, audio or video type, past a byte-order mark and whitespace", () => {
    const markups = [
      HTML,
      Buffer.from("\ufeff  \n<html>"),
      Buffer.from("<?xml version='1.0'?><svg/>"),
      Buffer.from("\t<svg onload=alert(1)>"),
      Buffer.from("\ufeff<x>", "utf16le"),
    ];
    for (const markup of markups) {
      for (const [type, mimeType] of [
        ["image", "image/png"],
        ["image", "image/gif"],
        ["audio", "audio/wav"],
        ["file", "video/mp4"],
        ["file", "application/pdf"],
      ] as const) {
        expect(refusalOf({ type, data: b64(markup), mimeType })!.reason).toBe(
          `its bytes are text markup (HTML, XML or SVG), not ${mimeType}`,
        );
      }
    }
    expect(() => image(HTML, "image/png")).toThrow(
      new TypeError("image(): its bytes are text markup (HTML, XML or SVG), not image/png."),
    );
    expect(refusalOf({ type: "file", data: b64(HTML), mimeType: "text/html", name: "page.html" })).toBeUndefined();
  });

  it("send an SVG image that runs no script, and refuse one that can", () => {
    const chart = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/><text>Q3 &#8211; on target</text></svg>',
    );
    expect(refusalOf({ type: "image", data: b64(chart), mimeType: "image/svg+xml" })).toBeUndefined();
    const scripted: Array<[string, string]> = [
      ["<svg><script>alert(1)</script></svg>", "a <script> element"],
      ["<svg><svg:script>alert(1)</svg:script></svg>", "a <script> element"],
      ['<svg onload="alert(1)"/>', "an onload attribute"],
      ["<svg><foreignObject><body/></foreignObject></svg>", "a <foreignobject> element"],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg/>', "an <!ENTITY> declaration"],
      ['<svg><a href="java\nscript:alert(1)"><rect/></a></svg>', "a javascript: address"],
      ['<svg><a href="&#106;avascript&#x3A;alert(1)"><rect/></a></svg>', "a javascript: address"],
      ['<svg><a href="javascript&colon;alert(1)"><rect/></a></svg>', "a javascript: address"],
    ];
    for (const [svg, found] of scripted) {
      expect(refusalOf({ type: "image", data: b64(Buffer.from(svg)), mimeType: "image/svg+xml" })!.reason).toBe(
        `the SVG image has ${found}, which can run script; send the image as a PNG instead`,
      );
    }
    expect(() => image(Buffer.from(scripted[0]![0]), "image/svg+xml")).toThrow(TypeError);
  });

  it("refuse data that is not base64, and send base64 canonical (line breaks out, padding in)", () => {
    expect(refusalOf({ type: "audio", data: "not base64!", mimeType: "audio/wav" })!.reason).toBe(
      "its data is not base64",
    );
    const wrapped = b64(PDF)
      .replace(/=+$/, "")
      .replace(/(.{4})/g, "$1\n");
    expect(returned({ type: "file", data: wrapped, mimeType: "application/pdf" }).content).toEqual([
      { type: "file", data: b64(PDF), mimeType: "application/pdf" },
    ]);
  });

  it("bytes a tool returns under its declared mime type are checked as parts are: refused into unsentContent, not a failed call", async () => {
    const page = defineTool({ name: "page", description: "A page", mimeType: "image/png", execute: () => HTML });
    const result = await page.execute({});
    expect(result).toMatchObject({
      isError: false,
      content: [
        { type: "text", text: "[image not sent: its bytes are text markup (HTML, XML or SVG), not image/png]" },
      ],
    });
    expect(unsentOf(result)).toEqual([
      {
        index: 0,
        type: "image",
        mimeType: "image/png",
        reason: "its bytes are text markup (HTML, XML or SVG), not image/png",
      },
    ]);
  });
});

describe("file names", () => {
  const bad = [
    "../etc/passwd",
    "a/b.pdf",
    "a\\b.pdf",
    "a\u0000b.pdf",
    "report\n.pdf",
    "\u202egnp.exe",
    "x\u0085y",
    ".",
    "..",
    "n".repeat(MAX_FILE_NAME + 1),
  ];

  it("carry no path separators or control characters, and are at most MAX_FILE_NAME characters", () => {
    for (const name of bad) {
      const refusal = refusalOf({ type: "file", data: b64(PDF), mimeType: "application/pdf", name });
      expect(refusal).toMatchObject({ index: 0, type: "file", mimeType: "application/pdf" });
      expect(refusal!.reason).toMatch(
        /^the name must be (a file name, without "\/", "\\" or control characters|at most 255 characters)/,
      );
      expect(() => file(PDF, "application/pdf", name)).toThrow(/^file\(\): the name must be/);
    }
    expect(
      refusalOf({ type: "file", url: "https://example.com/x", mimeType: "application/pdf", name: "a/b" }),
    ).toBeDefined();
  });

  it("take any other name, spaces and non-Latin letters included", () => {
    for (const name of ["Q3 report (final).pdf", "отчёт.pdf", "n".repeat(MAX_FILE_NAME), ".hidden"]) {
      expect(refusalOf({ type: "file", data: b64(PDF), mimeType: "application/pdf", name })).toBeUndefined();
    }
  });
});

describe("a result's total size", () => {
  it("is at most MAX_RESULT_CONTENT_BYTES: parts are counted in order, and one that would go past it is not sent", () => {
    const eight = b64(Buffer.alloc(8 * 1024 * 1024, 1));
    const parts = [1, 2, 3].map(() => ({ type: "file", data: eight, mimeType: "application/octet-stream" }));
    const result = returned(...parts, { type: "image", data: b64(PNG), mimeType: "image/png" });
    expect(unsentOf(result)).toEqual([
      {
        index: 2,
        type: "file",
        mimeType: "application/octet-stream",
        reason: "8.0 MB more would take the result's parts over the 20.0 MB a result may carry",
      },
    ]);
    expect(result.content!.map((part) => part.type)).toEqual(["file", "file", "text", "image"]);
    expect(MAX_RESULT_CONTENT_BYTES).toBe(2 * MAX_CONTENT_BYTES);
  });

  it("counts data: URLs as the bytes they hold", () => {
    const nine = `data:application/octet-stream;base64,${b64(Buffer.alloc(9 * 1024 * 1024, 2))}`;
    const result = returned(
      ...[1, 2, 3].map(() => ({ type: "file", url: nine, mimeType: "application/octet-stream" })),
    );
    expect(unsentOf(result).map((refusal) => refusal.index)).toEqual([2]);
  });

  it("holds for a ToolResult's own content too", () => {
    const eight = b64(Buffer.alloc(8 * 1024 * 1024, 1));
    const result = toToolResult({
      output: "three files",
      isError: false,
      content: [1, 2, 3].map(() => ({ type: "file", data: eight, mimeType: "application/zip" })),
    });
    expect(unsentOf(result).map((refusal) => refusal.index)).toEqual([3]);
    expect(result.content![0]).toEqual({ type: "text", text: "three files" });
  });
});

describe("refusals", () => {
  it("are a text note at the part's place, an unsentContent entry with its reason, and a text form that says so", () => {
    const result = toToolResult({
      output: "",
      isError: false,
      content: [
        { type: "text", text: "Here:" },
        { type: "image", url: "javascript:alert(1)" },
      ],
    });
    expect(result.content).toEqual([
      { type: "text", text: "Here:" },
      {
        type: "text",
        text: '[image not sent: an image by URL must be at an https:, http: or data: address (got a "javascript:" one)]',
      },
    ]);
    expect(result.output).toBe(
      'Here:\n[image not sent: an image by URL must be at an https:, http: or data: address (got a "javascript:" one)]',
    );
    expect(result.metadata).toEqual({
      unsentContent: [{ index: 1, type: "image", reason: expect.stringContaining("javascript:") }],
    });
  });

  it("of a remote result whose text form came from its parts make that text form again", () => {
    const parts: ToolContent[] = [{ type: "resource_link", uri: "javascript:alert(1)", name: "x" }];
    const result = toToolResult({ output: "[resource x at javascript:alert(1)]", isError: false, content: parts });
    expect(result.output).toBe("[resource link not sent: a resource link's uri must not be a javascript: address]");
  });

  it("never make a call throw, whatever parts a tool returns, and checking again refuses nothing more", () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "javascript:x",
        "data:image/png;base64,AAAA",
        "https://e.x/a",
        "image/png",
        "text/html",
        "../a",
        "AAAA",
        "<svg onload=x>",
      ),
    );
    const data = fc.oneof(
      text,
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("base64")),
    );
    const annotations = fc.oneof(
      fc.constant(undefined),
      fc.object(),
      fc.record({ audience: fc.array(text), priority: fc.double(), lastModified: text }, { requiredKeys: [] }),
    );
    const kinds = [
      fc.record({ type: fc.constant("text"), text }),
      fc.record({ type: fc.constant("image"), data, mimeType: text }),
      fc.record({ type: fc.constant("image"), url: text, mimeType: text }, { requiredKeys: ["type", "url"] }),
      fc.record({ type: fc.constant("audio"), data, mimeType: text }),
      fc.record(
        { type: fc.constant("file"), data, url: text, mimeType: text, name: text },
        { requiredKeys: ["type", "mimeType"] },
      ),
      fc.record(
        { type: fc.constant("resource_link"), uri: text, name: text, mimeType: text, description: text },
        { requiredKeys: ["type", "uri"] },
      ),
    ];
    const part = fc
      .tuple(fc.oneof(...kinds), annotations)
      .map(([fields, given]) => (given === undefined ? fields : { ...fields, annotations: given }));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        // A file part needs data or a url: without either it is not a part at all (a clear execution_failed).
        fc.pre(parts.every((given) => given.type !== "file" || "data" in given || "url" in given));
        const first = toToolResult({ output: "", isError: false, content: parts });
        expect(first.isError).toBe(false);
        const again = toToolResult({
          output: first.output,
          isError: false,
          content: first.content,
          metadata: first.metadata,
        });
        expect(again).toEqual(first);
        for (const refusal of unsentOf(first))
          expect(first.content![refusal.index]).toMatchObject({
            type: "text",
            text: expect.stringContaining("not sent: "),
          });
      }),
      { numRuns: 300 },
    );
  });

  it("are TypeErrors from the helpers, naming the helper", () => {
    expect(() => audio(HTML, "audio/wav")).toThrow(
      new TypeError("audio(): its bytes are text markup (HTML, XML or SVG), not audio/wav."),
    );
    expect(() => file(PNG, "image/jpeg")).toThrow(new TypeError("file(): its bytes are image/png, not image/jpeg."));
    expect(() => resourceLink("vbscript:msgbox(1)")).toThrow(
      new TypeError("resourceLink(): a resource link's uri must not be a vbscript: address."),
    );
  });
});

describe("annotations", () => {
  it("are kept on a part when they are MCP's: audience, priority from 0 to 1, lastModified an RFC 3339 date-time", () => {
    const annotations = {
      audience: ["user" as const, "assistant" as const],
      priority: 0.5,
      lastModified: "2025-01-12T15:00:58Z",
    };
    const result = returned({ ...image(PNG), annotations }, { type: "text", text: "hi", annotations: { priority: 1 } });
    expect(result.content).toEqual([
      { ...image(PNG), annotations },
      { type: "text", text: "hi", annotations: { priority: 1 } },
    ]);
    expect(result.metadata).toBeUndefined();
    expect(resourceLink("https://example.com", { annotations: { audience: ["user"] } })).toEqual({
      type: "resource_link",
      uri: "https://example.com",
      annotations: { audience: ["user"] },
    });
  });

  it("that are not well formed are left out, the part kept, and listed in metadata.unsentAnnotations", () => {
    const result = returned(
      {
        type: "text",
        text: "hi",
        annotations: { audience: ["user", "admin"], priority: 5, lastModified: "yesterday", color: "red" },
      },
      { ...image(PNG), annotations: "high" },
    );
    expect(result.content).toEqual([{ type: "text", text: "hi" }, image(PNG)]);
    expect(result.metadata).toEqual({
      unsentAnnotations: [
        {
          index: 0,
          type: "text",
          field: "audience",
          reason: 'audience must be a list of "user" and "assistant" (got an array)',
        },
        { index: 0, type: "text", field: "priority", reason: "priority must be a number from 0 to 1 (got 5)" },
        {
          index: 0,
          type: "text",
          field: "lastModified",
          reason: 'lastModified must be an RFC 3339 date-time, e.g. "2025-01-12T15:00:58Z" (got "yesterday")',
        },
        {
          index: 0,
          type: "text",
          field: "color",
          reason: '"color" is not an MCP content annotation (audience, priority, lastModified)',
        },
        { index: 1, type: "image", field: "annotations", reason: "annotations must be an object (got string)" },
      ],
    });
    expect(() => resourceLink("https://example.com", { annotations: { priority: -1 } })).toThrow(
      new TypeError("resourceLink(): priority must be a number from 0 to 1 (got -1)."),
    );
  });

  it("keep only what was well formed of them", () => {
    expect(returned({ type: "text", text: "hi", annotations: { priority: 0.2, audience: "user" } }).content).toEqual([
      { type: "text", text: "hi", annotations: { priority: 0.2 } },
    ]);
  });
});
