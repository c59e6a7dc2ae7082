/**
 * A resource template's URI template (RFC 6570) read backwards: given a URI, the variables the
 * template would have made it with, percent-decoded; undefined for a URI it does not make.
 */
import { parseUriTemplate } from "../../src/runtime/uri-template";

const match = (template: string, uri: string) => parseUriTemplate(template).match(uri);

describe("parsing a URI template", () => {
  it("lists its variables in the order they appear, across expressions", () => {
    expect(parseUriTemplate("logs://{service}/{date}{?level,limit}{#line}").variables).toEqual([
      "service",
      "date",
      "level",
      "limit",
      "line",
    ]);
  });

  it("keeps the template it was given", () => {
    expect(parseUriTemplate("users://{id}/profile").template).toBe("users://{id}/profile");
  });

  it("lists no variables for a template with no expression", () => {
    expect(parseUriTemplate("config://app").variables).toEqual([]);
  });

  it("names a variable with a prefix or explode modifier without its modifier", () => {
    expect(parseUriTemplate("u://{id:3}/{list*}").variables).toEqual(["id", "list"]);
  });
});

describe("simple expressions {x}", () => {
  it("read one path segment", () => {
    expect(match("users://{id}/profile", "users://42/profile")).toEqual({ id: "42" });
  });

  it("read several variables around literal text", () => {
    expect(match("repo://{owner}/{name}/issues", "repo://ada/engine/issues")).toEqual({ owner: "ada", name: "engine" });
  });

  it("percent-decode what they read, reserved characters included", () => {
    expect(match("users://{id}/profile", "users://a%20b%2Fc%3Fd/profile")).toEqual({ id: "a b/c?d" });
  });

  it("decode UTF-8 sequences into the characters they encode", () => {
    expect(match("cities://{name}", "cities://Z%C3%BCrich")).toEqual({ name: "Zürich" });
  });

  it("read an empty value where the URI has nothing between the literals", () => {
    expect(match("users://{id}/profile", "users:///profile")).toEqual({ id: "" });
  });

  it("split a list of variables at commas", () => {
    expect(match("points://{x,y}", "points://3,4")).toEqual({ x: "3", y: "4" });
  });

  it("do not reach across a slash", () => {
    expect(match("users://{id}/profile", "users://4/2/profile")).toBeUndefined();
  });

  it("do not reach into a query or fragment", () => {
    expect(match("users://{id}", "users://42?tab=1")).toBeUndefined();
    expect(match("users://{id}", "users://42#top")).toBeUndefined();
  });
});

describe("reserved expressions {+path}", () => {
  it("read across slashes", () => {
    expect(match("file:///{+path}", "file:///var/log/app.txt")).toEqual({ path: "var/log/app.txt" });
  });

  it("percent-decode what they read", () => {
    expect(match("file:///{+path}", "file:///my%20docs/r%C3%A9sum%C3%A9.pdf")).toEqual({ path: "my docs/résumé.pdf" });
  });

  it("stop before a literal suffix", () => {
    expect(match("file:///{+path}.json", "file:///a/b/c.json")).toEqual({ path: "a/b/c" });
  });

  it("do not reach into a query", () => {
    expect(match("file:///{+path}", "file:///a/b?x=1")).toBeUndefined();
  });

  it("read an empty value as the empty string, as simple expressions do", () => {
    expect(match("file:///{+path}", "file:///")).toEqual({ path: "" });
  });
});

describe("fragment expressions {#frag}", () => {
  it("read what follows the #, slashes included", () => {
    expect(match("docs://guide{#section}", "docs://guide#install/linux")).toEqual({ section: "install/linux" });
  });

  it("percent-decode what they read", () => {
    expect(match("docs://guide{#section}", "docs://guide#getting%20started")).toEqual({ section: "getting started" });
  });

  it("leave the variable out when the URI has no fragment", () => {
    expect(match("docs://guide{#section}", "docs://guide")).toEqual({});
  });

  it("read a bare # as the empty string (what an empty value expands to)", () => {
    expect(match("docs://guide{#section}", "docs://guide#")).toEqual({ section: "" });
  });
});

describe("label expressions {.ext}", () => {
  it("read what follows the dot", () => {
    expect(match("files://report{.format}", "files://report.csv")).toEqual({ format: "csv" });
  });

  it("leave the variable out when there is no dot", () => {
    expect(match("files://report{.format}", "files://report")).toEqual({});
  });

  it("read a bare dot as the empty string (what an empty value expands to)", () => {
    expect(match("files://report{.format}", "files://report.")).toEqual({ format: "" });
  });

  it("split a list of variables at dots", () => {
    expect(match("host://www{.domain,tld}", "host://www.example.com")).toEqual({ domain: "example", tld: "com" });
  });
});

describe("path segment expressions {/seg}", () => {
  it("read the segment after the slash", () => {
    expect(match("api://v1{/resource}", "api://v1/users")).toEqual({ resource: "users" });
  });

  it("percent-decode the segment", () => {
    expect(match("api://v1{/resource}", "api://v1/a%2Fb")).toEqual({ resource: "a/b" });
  });

  it("split a list of variables at slashes", () => {
    expect(match("api://v1{/kind,id}", "api://v1/users/42")).toEqual({ kind: "users", id: "42" });
  });

  it("leave the variable out when there is no segment", () => {
    expect(match("api://v1{/resource}", "api://v1")).toEqual({});
  });

  it("read a bare slash as the empty string (what an empty value expands to)", () => {
    expect(match("api://v1{/resource}", "api://v1/")).toEqual({ resource: "" });
  });
});

describe("path parameter expressions {;p}", () => {
  it("read name=value pairs", () => {
    expect(match("map://tiles{;x,y}", "map://tiles;x=10;y=20")).toEqual({ x: "10", y: "20" });
  });

  it("read a name without a value as the empty string", () => {
    expect(match("map://tiles{;flag}", "map://tiles;flag")).toEqual({ flag: "" });
  });

  it("read the pairs in any order", () => {
    expect(match("map://tiles{;x,y}", "map://tiles;y=2;x=1")).toEqual({ x: "1", y: "2" });
  });
});

describe("query expressions {?q,page} and continuations {&more}", () => {
  it("read the named query parameters, percent-decoded", () => {
    expect(match("search://items{?q,page}", "search://items?q=red%20shoes&page=2")).toEqual({
      q: "red shoes",
      page: "2",
    });
  });

  it("read the parameters in any order, ignoring ones the template does not name", () => {
    expect(match("search://items{?q,page}", "search://items?page=3&sort=asc&q=tea")).toEqual({ q: "tea", page: "3" });
  });

  it("leave out the parameters the URI does not give", () => {
    expect(match("search://items{?q,page}", "search://items?q=tea")).toEqual({ q: "tea" });
    expect(match("search://items{?q,page}", "search://items")).toEqual({});
  });

  it("continue a query the template starts in its literal text", () => {
    expect(match("search://items?lang=en{&more}", "search://items?lang=en&more=yes")).toEqual({ more: "yes" });
  });

  it("match the literal query alone when the continuation is absent", () => {
    expect(match("search://items?lang=en{&more}", "search://items?lang=en")).toEqual({});
  });

  it("do not match where the literal query differs", () => {
    expect(match("search://items?lang=en{&more}", "search://items?lang=fr&more=yes")).toBeUndefined();
  });
});

describe("URIs a template does not make", () => {
  it("give undefined for another scheme or literal text", () => {
    expect(match("users://{id}/profile", "people://42/profile")).toBeUndefined();
    expect(match("users://{id}/profile", "users://42/settings")).toBeUndefined();
  });

  it("give undefined for a URI with more after the template's end", () => {
    expect(match("users://{id}", "users://42/more")).toBeUndefined();
  });

  it("give undefined for a URI with less than the template's literal text", () => {
    expect(match("users://{id}/profile", "users://42")).toBeUndefined();
  });

  it("treat regular-expression characters in the literal text as themselves", () => {
    expect(match("a+b://(x).{id}", "a+b://(x).1")).toEqual({ id: "1" });
    expect(match("a+b://(x).{id}", "aab://(x).1")).toBeUndefined();
  });
});

describe("malformed percent-encoding", () => {
  it("makes a simple expression's URI not match", () => {
    expect(match("users://{id}", "users://%E0%A4%A")).toBeUndefined();
  });

  it("makes a lone % not match", () => {
    expect(match("users://{id}", "users://100%")).toBeUndefined();
  });

  it("makes a query parameter's URI not match", () => {
    expect(match("search://items{?q}", "search://items?q=%zz")).toBeUndefined();
  });

  it("makes a reserved expression's URI not match", () => {
    expect(match("file:///{+path}", "file:///a/%C3")).toBeUndefined();
  });
});

describe("templates that cannot be read", () => {
  it("throw for an unclosed brace, naming the template", () => {
    expect(() => parseUriTemplate("users://{id")).toThrow(
      new TypeError('URI template "users://{id" has an unclosed or stray brace.'),
    );
  });

  it("throw for a stray closing brace", () => {
    expect(() => parseUriTemplate("users://id}")).toThrow(/unclosed or stray brace/);
  });

  it("throw for nested braces", () => {
    expect(() => parseUriTemplate("users://{{id}}")).toThrow(/unclosed or stray brace/);
  });

  it("throw for a variable named twice, naming it", () => {
    expect(() => parseUriTemplate("users://{id}/{id}")).toThrow(
      new TypeError('URI template "users://{id}/{id}" names the variable "id" twice.'),
    );
  });

  it("throw for a variable named twice in different expressions", () => {
    expect(() => parseUriTemplate("users://{id}{?id}")).toThrow(/names the variable "id" twice/);
  });

  it("throw for an empty expression, naming it", () => {
    expect(() => parseUriTemplate("users://{}")).toThrow(
      new TypeError('URI template "users://{}": "{}" is not a variable expression.'),
    );
  });

  it("throw for a variable name with a space", () => {
    expect(() => parseUriTemplate("users://{first name}")).toThrow(/"\{first name\}" is not a variable expression/);
  });

  it("throw for an operator RFC 6570 reserves for future use", () => {
    expect(() => parseUriTemplate("users://{=id}")).toThrow(/"\{=id\}" is not a variable expression/);
  });

  it("throw for a prefix modifier that is not a number", () => {
    expect(() => parseUriTemplate("users://{id:x}")).toThrow(/"\{id:x\}" is not a variable expression/);
  });
});
