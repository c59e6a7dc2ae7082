import "reflect-metadata";
import { Type } from "class-transformer";
import { IsString, ValidateNested } from "class-validator";
import { Args, ScanError, scanTools, Tool, type Constructor } from "../../src";
import { DOUBLING_LEVELS } from "../support/doubling-schema";

/**
 * DTO classes `Level0` ... each with a `left` and a `right` of the next one (nested, validated),
 * the last with a string `leaf`: their schema, every nested class written out, doubles at each level.
 */
function doublingDtos(levels: number): Constructor {
  class Leaf {
    leaf!: string;
  }
  IsString()(Leaf.prototype, "leaf");
  let next: Constructor = Leaf;
  for (let level = levels - 1; level >= 0; level--) {
    const nested = next;
    const dto = { [`Level${level}`]: class {} }[`Level${level}`]!;
    for (const key of ["left", "right"]) {
      ValidateNested()(dto.prototype, key);
      Type(() => nested)(dto.prototype, key);
      Reflect.defineMetadata("design:type", nested, dto.prototype, key);
    }
    next = dto;
  }
  return next;
}

/** The ScanError scanning a tool that takes `dto` as its arguments throws; fails the test when there is none. */
function scanErrorTaking(dto: Constructor): ScanError {
  class Forest {
    @Tool("Walks a tree")
    walk(@Args(dto) tree: object) {
      return tree;
    }
  }
  try {
    scanTools(new Forest(), { manifest: false });
  } catch (error) {
    expect(error).toBeInstanceOf(ScanError);
    return error as ScanError;
  }
  throw new Error("expected a ScanError");
}

describe("DTOs whose schema would be too large with their nested classes written out", () => {
  it(`are refused when nesting doubles at each of ${DOUBLING_LEVELS} levels, naming the tool, the DTO, where the schema passed the limit, and the limit`, () => {
    expect(scanErrorTaking(doublingDtos(DOUBLING_LEVELS)).message).toMatch(
      new RegExp(
        String.raw`^Forest\.walk.*: DTO Level0 is too large to inline: with each nested class written out wherever it is used, its schema grows past 1,000,000 characters of JSON ` +
          String.raw`\(toolnexus's limit, MAX_SCHEMA_SIZE\) at (?:/properties/(?:left|right))+: classes nested in many places multiply\. Nest large classes in fewer places\.$`,
      ),
    );
  });

  it("are inlined whole within the limit", () => {
    class Forest {
      @Tool("Walks a tree")
      walk(@Args(doublingDtos(4)) tree: object) {
        return tree;
      }
    }
    const [walk] = scanTools(new Forest(), { manifest: false });
    expect(JSON.stringify(walk!.inputSchema).match(/"leaf":\{"type":"string"\}/g)).toHaveLength(2 ** 4);
  });
});
