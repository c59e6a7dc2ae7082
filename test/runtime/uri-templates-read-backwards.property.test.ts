import fc from "fast-check";
import { parseUriTemplate } from "../../src/runtime/uri-template";

/** Any text, with the characters a URI treats specially mixed in often. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom("/", "?", "#", "%", "&", "=", ",", "+", ";", ".", ":", "@", " ", "{", "}", "%2F", "%25"),
      fc.string({ unit: "binary", maxLength: 4 }),
    ),
    { maxLength: 8 },
  )
  .map((pieces) => pieces.join(""));

describe("a URI template read backwards, for any values", () => {
  it("gives back the values of simple expressions it was expanded with", () => {
    const template = parseUriTemplate("x://{a}/y/{b}");
    fc.assert(
      fc.property(text, text, (a, b) => {
        // RFC 6570 simple expansion: every character outside the unreserved set percent-encoded.
        const uri = `x://${encodeURIComponent(a)}/y/${encodeURIComponent(b)}`;
        expect(template.match(uri)).toEqual({ a, b });
      }),
    );
  });

  it("gives back the value of a reserved expression it was expanded with, for values without ? or #", () => {
    const template = parseUriTemplate("file:///{+path}");
    fc.assert(
      fc.property(
        text.filter((path) => !path.includes("?") && !path.includes("#")),
        (path) => {
          // Reserved expansion: reserved characters kept as they are, the rest percent-encoded.
          const uri = `file:///${encodeURI(path)}`;
          expect(template.match(uri)).toEqual({ path });
        },
      ),
    );
  });

  it("gives back the value of a reserved expression followed by literal text", () => {
    const template = parseUriTemplate("file:///{+path}.json");
    fc.assert(
      fc.property(
        text.filter((path) => !path.includes("?") && !path.includes("#")),
        (path) => {
          expect(template.match(`file:///${encodeURI(path)}.json`)).toEqual({ path });
        },
      ),
    );
  });
});
