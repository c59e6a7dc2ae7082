import "reflect-metadata";
import { IsString, Matches } from "class-validator";
import { Param, ScanError, Tool, Toolkit } from "../../src";

/**
 * A regular expression's flags have no JSON Schema form: a `@Param({ pattern })` or `@Matches`
 * with flags is refused at scan time, naming the parameter or the property; a pattern without
 * flags is kept as its source.
 */
describe("regular-expression flags", () => {
  it("refuses @Param({ pattern }) with a flag JSON Schema cannot express, naming the parameter", () => {
    class Svc {
      @Tool("t") t(@Param({ pattern: /^[a-z]+$/i }) s: string) {
        return s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(ScanError);
    expect(() => new Toolkit([new Svc()])).toThrow(
      /Svc\.t, parameter 0 \("s"\): the pattern's flags "i" cannot be expressed in JSON Schema/,
    );
  });

  it("refuses @Matches with a flag, naming the property", () => {
    class Dto {
      @IsString() @Matches(/^[a-z]+$/i) s!: string;
    }
    class Svc {
      @Tool("t") t(@Param() dto: Dto) {
        return dto.s;
      }
    }
    expect(() => new Toolkit([new Svc()])).toThrow(
      /Dto\.s: the pattern's flags "i" cannot be expressed in JSON Schema/,
    );
  });

  it("keeps a pattern without flags", () => {
    class Svc {
      @Tool("t") t(@Param({ pattern: /^[a-z]+$/ }) s: string) {
        return s;
      }
    }
    expect(new Toolkit([new Svc()]).get("t")!.inputSchema.properties!.s).toEqual({
      type: "string",
      pattern: "^[a-z]+$",
    });
  });
});
