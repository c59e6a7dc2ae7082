/**
 * @Resource, @ResourceTemplate and @Prompt used where they cannot work (legacy decorators, as the
 * default tsconfig compiles them): each is refused when the class is defined or registered, with
 * an error that names the decorator, the class and method, and what to do instead. Icons and
 * OAuth scopes are checked the same way on resources, prompts and tools.
 */
import "reflect-metadata";
import { z } from "zod";
import {
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  ScanError,
  Tool,
  ToolDefinitionError,
  Toolkit,
  defineTool,
  type Icon,
} from "toolnexus";

/** The error `run` throws (the test fails when it throws none). */
function thrownBy(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

type LegacyDecorator = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => void;

describe("@Resource's URI", () => {
  it("is required, and leaving it out says to give one first", () => {
    expect(() => Resource(undefined as unknown as string)).toThrow(
      new TypeError('@Resource takes the resource\'s URI first, e.g. @Resource("config://app") (got undefined).'),
    );
  });

  it("cannot be empty", () => {
    const error = thrownBy(() => Resource(""));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^@Resource takes the resource's URI first, e\.g\. @Resource\("config:\/\/app"\)/);
  });
});

describe("@ResourceTemplate's URI template", () => {
  it("needs a {variable}, and a fixed URI is pointed to @Resource", () => {
    expect(() => ResourceTemplate("users://profile")).toThrow(
      new TypeError(
        '@ResourceTemplate takes a URI template with at least one {variable}, e.g. "users://{id}/profile" (got ' +
          '"users://profile"); a fixed URI is a @Resource.',
      ),
    );
  });

  it("is refused at registration when it names a variable twice, naming the class and method", () => {
    class Users {
      @ResourceTemplate("users://{id}/{id}")
      profile(@Param("id") id: string) {
        return id;
      }
    }
    const error = thrownBy(() => new Toolkit([new Users()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(
      '@ResourceTemplate on Users.profile: URI template "users://{id}/{id}" names the variable "id" twice.',
    );
  });
});

describe("a template's variables and its method's parameters", () => {
  it("must be the same names: a variable without a parameter is named, with the class and method", () => {
    class Users {
      @ResourceTemplate("users://{id}/profile")
      profile(@Param("key") key: string) {
        return key;
      }
    }
    const error = thrownBy(() => new Toolkit([new Users()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(
      "@ResourceTemplate on Users.profile: Resource template users://{id}/profile: its variables (id) and its " +
        'parameters (key) must be the same names; "id" is only in one.',
    );
  });

  it("must be the same names: a parameter without a variable is named too", () => {
    class Users {
      @ResourceTemplate("users://{id}/profile")
      profile(@Param("id") id: string, @Param("tab") tab: string) {
        return `${id} ${tab}`;
      }
    }
    expect(() => new Toolkit([new Users()])).toThrow(
      new ScanError(
        "@ResourceTemplate on Users.profile: Resource template users://{id}/profile: its variables (id) and its " +
          'parameters (id, tab) must be the same names; "tab" is only in one.',
      ),
    );
  });

  it("must be the same names: a template whose method has no parameters says it has none", () => {
    class Users {
      @ResourceTemplate("users://{id}")
      profile() {
        return "";
      }
    }
    expect(() => new Toolkit([new Users()])).toThrow(/\(id\) and its parameters \(none\) must be the same names/);
  });
});

describe("@Resource on a method with parameters", () => {
  it("is refused, pointing to a resource template, naming the class, method and parameters", () => {
    class Config {
      @Resource("config://app")
      settings(@Param("section") section: string) {
        return section;
      }
    }
    const error = thrownBy(() => new Toolkit([new Config()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(
      "@Resource on Config.settings: Resource config://app takes no arguments (it has section); a resource whose " +
        "URI has variables is a resource template.",
    );
  });
});

describe("primitive decorators on what is not an instance method", () => {
  it("@Resource on a static method throws when the class is defined, saying to use an instance method", () => {
    expect(() => {
      class Statics {
        @Resource("config://app")
        static settings() {
          return "";
        }
      }
      return Statics;
    }).toThrow(new TypeError("@Resource on static method Statics.settings: use an instance method."));
  });

  it("@Prompt on a static method throws the same way", () => {
    expect(() => {
      class Statics {
        @Prompt("Greets")
        static greet() {
          return "";
        }
      }
      return Statics;
    }).toThrow(new TypeError("@Prompt on static method Statics.greet: use an instance method."));
  });

  it("@Resource on a property throws, saying it goes on methods", () => {
    const decorate = Resource("config://app") as LegacyDecorator;
    class Holder {}
    expect(() => decorate(Holder.prototype, "settings")).toThrow(
      new TypeError("@Resource on Holder.settings: @Resource goes on methods with string names."),
    );
  });

  it("@ResourceTemplate on a property holding a value throws, saying it goes on methods", () => {
    const decorate = ResourceTemplate("users://{id}") as LegacyDecorator;
    class Holder {}
    expect(() => decorate(Holder.prototype, "profile", { value: 42 })).toThrow(
      new TypeError("@ResourceTemplate on Holder.profile: @ResourceTemplate goes on methods with string names."),
    );
  });

  it("@Prompt on a method named by a symbol throws, saying it needs a string name", () => {
    const decorate = Prompt("Greets") as LegacyDecorator;
    class Holder {}
    expect(() => decorate(Holder.prototype, Symbol("greet"), { value: () => "" })).toThrow(
      new TypeError("@Prompt on Holder.Symbol(greet): @Prompt goes on methods with string names."),
    );
  });
});

describe("the method behind a resource or prompt", () => {
  it("with input and a @Param too is refused naming @Prompt and the method, not a tool", () => {
    class Reviews {
      @Prompt({ input: z.object({ code: z.string() }) })
      review(@Param("code") code: string) {
        return code;
      }
    }
    const error = thrownBy(() => new Toolkit([new Reviews()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toMatch(/^@Prompt on Reviews\.review: /);
    expect(error.message).not.toContain("@Tool");
  });

  it("with input and more than (args, ctx) is refused naming @ResourceTemplate and the method, not a tool", () => {
    class Users {
      @ResourceTemplate("users://{id}", { input: z.object({ id: z.string() }) })
      profile(args: { id: string }, ctx: unknown, extra: number) {
        return `${args.id} ${String(ctx)} ${extra}`;
      }
    }
    const error = thrownBy(() => new Toolkit([new Users()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toMatch(/^@ResourceTemplate on Users\.profile: /);
    expect(error.message).not.toContain("@Tool");
  });

  it("with a timeout that is not a positive number is refused naming @Resource, not a tool", () => {
    class Cache {
      @Resource("cache://latest", { timeout: -1 })
      latest() {
        return "";
      }
    }
    const error = thrownBy(() => new Toolkit([new Cache()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toMatch(/^@Resource on Cache\.latest: .*timeout must be a positive number of milliseconds/);
    expect(error.message).not.toMatch(/\bTool "latest"/);
  });
});

describe("complete", () => {
  it("naming an argument a prompt does not have is refused, listing the arguments there are", () => {
    class Reviews {
      @Prompt({ complete: { lang: ["typescript"] } })
      review(@Param("code") code: string, @Param("language") language: string) {
        return `${language}: ${code}`;
      }
    }
    const error = thrownBy(() => new Toolkit([new Reviews()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(
      '@Prompt on Reviews.review: Prompt "review": complete names "lang", which is not one of its arguments ' +
        "(code, language).",
    );
  });

  it("naming a variable a template does not have is refused, listing its variables", () => {
    class Users {
      @ResourceTemplate("users://{id}", { complete: { name: ["ada"] } })
      profile(@Param("id") id: string) {
        return id;
      }
    }
    expect(() => new Toolkit([new Users()])).toThrow(
      new ScanError(
        '@ResourceTemplate on Users.profile: Resource template users://{id}: complete names "name", which is not ' +
          "one of its arguments (id).",
      ),
    );
  });

  it("naming an argument of a prompt that has none says there are none", () => {
    class Greetings {
      @Prompt({ complete: { name: ["ada"] } })
      greet() {
        return "Hello";
      }
    }
    expect(() => new Toolkit([new Greetings()])).toThrow(
      /complete names "name", which is not one of its arguments \(none\)/,
    );
  });

  it("giving an argument something other than a list of strings or a function says what it takes", () => {
    class Reviews {
      @Prompt({ complete: { code: [1, 2] as unknown as string[] } })
      review(@Param("code") code: string) {
        return code;
      }
    }
    expect(() => new Toolkit([new Reviews()])).toThrow(
      new ScanError(
        '@Prompt on Reviews.review: Prompt "review": complete.code must be a list of strings or a function ' +
          "(value, context) => strings.",
      ),
    );
  });
});

describe("icons", () => {
  const fix = "icons must be a list of { src, mimeType?, sizes?, theme? } with an https: or data: src";

  it("on a resource, with an http: src, are refused naming the class, method, icon and what src must be", () => {
    class Docs {
      @Resource("docs://readme", { icons: [{ src: "http://example.com/readme.png" }] })
      readme() {
        return "# Readme";
      }
    }
    const error = thrownBy(() => new Toolkit([new Docs()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(
      '@Resource on Docs.readme: @Resource: icon 1: src must be an https: or data: URL (got "http://example.com/readme.png"). ' +
        `${fix}.`,
    );
  });

  it("on a prompt, given as one icon rather than a list, are refused saying they are a list", () => {
    class Greetings {
      @Prompt({ icons: { src: "https://example.com/hi.png" } as unknown as Icon[] })
      greet() {
        return "Hello";
      }
    }
    expect(() => new Toolkit([new Greetings()])).toThrow(
      new ScanError(`@Prompt on Greetings.greet: @Prompt: ${fix} (got object).`),
    );
  });

  it("with sizes that are not WxH or any are refused, naming the sizes", () => {
    class Docs {
      @Resource("docs://readme", { icons: [{ src: "https://example.com/a.png", sizes: ["large"] }] })
      readme() {
        return "";
      }
    }
    expect(() => new Toolkit([new Docs()])).toThrow(
      new ScanError(
        '@Resource on Docs.readme: @Resource: icon 1: sizes must be a list like ["48x48", "any"] (got ["large"]). ' +
          `${fix}.`,
      ),
    );
  });

  it("with a theme other than light or dark are refused, naming which icon", () => {
    class Users {
      @ResourceTemplate("users://{id}", {
        icons: [
          { src: "https://example.com/light.png", theme: "light" },
          { src: "data:image/png;base64,AQID", theme: "dim" as "dark" },
        ],
      })
      profile(@Param("id") id: string) {
        return id;
      }
    }
    expect(() => new Toolkit([new Users()])).toThrow(
      new ScanError(
        `@ResourceTemplate on Users.profile: @ResourceTemplate: icon 2: theme must be "light" or "dark" (got "dim"). ${fix}.`,
      ),
    );
  });

  it("on a defined tool, with a src that is not a URL, are refused naming the tool", () => {
    const error = thrownBy(() =>
      defineTool({
        name: "lookup",
        description: "Looks up",
        inputSchema: { type: "object", properties: {} },
        icons: [{ src: "icon.png" }],
        execute: () => "",
      }),
    );
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error.message).toBe(`Tool "lookup": icon 1: src must be an https: or data: URL (got "icon.png"). ${fix}.`);
  });

  it("on a decorated tool, with a mimeType that is not a string, are refused naming the class and method", () => {
    class Search {
      @Tool({
        description: "Searches",
        icons: [{ src: "https://example.com/s.svg", mimeType: 7 as unknown as string }],
      })
      search(@Param("query") query: string) {
        return query;
      }
    }
    expect(() => new Toolkit([new Search()])).toThrow(
      new ScanError(`Search.search: Tool "search": icon 1: mimeType must be a string. ${fix}.`),
    );
  });

  it("that are well formed are kept on a decorated tool, resource and prompt", () => {
    const icons: Icon[] = [
      { src: "https://example.com/icon.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" },
      { src: "data:image/png;base64,AQID", sizes: ["16x16", "32x32"] },
    ];
    class Shown {
      @Tool({ description: "Searches", icons })
      search(@Param("query") query: string) {
        return query;
      }

      @Resource("docs://readme", { icons })
      readme() {
        return "";
      }

      @Prompt({ icons })
      greet() {
        return "Hello";
      }
    }
    const toolkit = new Toolkit([new Shown()]);
    expect(toolkit.tools()[0]!.icons).toEqual(icons);
    expect(toolkit.resources()[0]!.icons).toEqual(icons);
    expect(toolkit.prompts()[0]!.icons).toEqual(icons);
  });
});

describe("OAuth scopes", () => {
  const fix = 'scopes must be a list of OAuth scope names without spaces, e.g. ["invoices:read"]';

  it("with a space in a name are refused on a prompt, naming the class and method", () => {
    class Reports {
      @Prompt({ scopes: ["reports read"] })
      summary() {
        return "Summarize";
      }
    }
    const error = thrownBy(() => new Toolkit([new Reports()]));
    expect(error).toBeInstanceOf(ScanError);
    expect(error.message).toBe(`@Prompt on Reports.summary: @Prompt: ${fix} (got ["reports read"]).`);
  });

  it("given as one string rather than a list are refused on a resource", () => {
    class Invoices {
      @Resource("invoices://latest", { scopes: "invoices:read" as unknown as string[] })
      latest() {
        return "";
      }
    }
    expect(() => new Toolkit([new Invoices()])).toThrow(
      new ScanError(`@Resource on Invoices.latest: @Resource: ${fix} (got "invoices:read").`),
    );
  });

  it("with a quote or backslash in a name are refused on a template", () => {
    class Invoices {
      @ResourceTemplate("invoices://{id}", { scopes: ['invoices"read'] })
      invoice(@Param("id") id: string) {
        return id;
      }
    }
    expect(() => new Toolkit([new Invoices()])).toThrow(
      /^@ResourceTemplate on Invoices\.invoice: @ResourceTemplate: scopes must be/,
    );
  });

  it("with an empty name are refused on a defined tool, naming the tool", () => {
    expect(() =>
      defineTool({
        name: "pay",
        description: "Pays",
        inputSchema: { type: "object", properties: {} },
        scopes: [""],
        execute: () => "",
      }),
    ).toThrow(new ToolDefinitionError(`Tool "pay": ${fix} (got [""]).`));
  });

  it("that are not strings are refused on a decorated tool, naming the class and method", () => {
    class Payments {
      @Tool({ description: "Pays", scopes: [42] as unknown as string[] })
      pay() {
        return "";
      }
    }
    expect(() => new Toolkit([new Payments()])).toThrow(new ScanError(`Payments.pay: Tool "pay": ${fix} (got [42]).`));
  });

  it("that are well formed are kept once each, and are what a caller needs", () => {
    class Invoices {
      @Tool({ description: "Pays an invoice", scopes: ["invoices:write", "invoices:write", "payments"] })
      pay() {
        return "";
      }

      @Resource("invoices://latest", { scopes: ["invoices:read"] })
      latest() {
        return "";
      }

      @ResourceTemplate("invoices://{id}", { scopes: ["invoices:read", "archive"] })
      invoice(@Param("id") id: string) {
        return id;
      }

      @Prompt({ scopes: ["reports"] })
      summary() {
        return "";
      }
    }
    const toolkit = new Toolkit([new Invoices()]);
    expect(toolkit.get("pay")?.scopes).toEqual(["invoices:write", "payments"]);
    expect(toolkit.scopesFor("resource", "invoices://latest")).toEqual(["invoices:read"]);
    expect(toolkit.scopesFor("resource", "invoices://7")).toEqual(["invoices:read", "archive"]);
    expect(toolkit.scopesFor("prompt", "summary")).toEqual(["reports"]);
  });

  it("are none for a tool, resource or prompt that has none, or that is not there", () => {
    class Open {
      @Tool("Reads")
      read() {
        return "";
      }

      @Resource("open://data")
      data() {
        return "";
      }
    }
    const toolkit = new Toolkit([new Open()]);
    expect(toolkit.get("read")?.scopes).toBeUndefined();
    expect(toolkit.scopesFor("resource", "open://data")).toBeUndefined();
    expect(toolkit.scopesFor("prompt", "missing")).toBeUndefined();
  });
});
