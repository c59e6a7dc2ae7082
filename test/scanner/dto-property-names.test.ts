import "reflect-metadata";
import { Type } from "class-transformer";
import { IsNumber, IsString, ValidateNested } from "class-validator";
import { Args, Param, Tool, Toolkit, scanTools, type Constructor } from "../../src";
import { scanErrorOf } from "../support/scan-error";

/** Every name a plain object already has, and `prototype`: the names a DTO property may not take. */
const REFUSED = [...Object.getOwnPropertyNames(Object.prototype), "prototype"];

/**
 * A DTO class named `name` with a string property `key`, decorated by calling the decorator as
 * TypeScript would (TypeScript itself refuses most such properties in a class body when their type
 * differs from the member's; JavaScript and `any`-typed properties do not).
 */
function dtoWith(key: string, name = "Payload"): Constructor {
  const dto = { [name]: class {} }[name]!;
  IsString()(dto.prototype, key);
  return dto;
}

describe("DTO property names that every object already has are refused at scan", () => {
  it.each(REFUSED)('@Args DTO with a property "%s"', (key) => {
    const dto = dtoWith(key);
    IsNumber()(dto.prototype, "amount");
    class Billing {
      @Tool("Charges")
      charge(@Args(dto) input: object) {
        return input;
      }
    }
    const message = scanErrorOf(new Billing()).message;
    expect(message.startsWith("Billing.charge, parameter 0: DTO Payload has a property named ")).toBe(true);
    expect(message).toContain(JSON.stringify(key));
    expect(message).toMatch(/Rename the property\.$/);
    expect(() => new Toolkit([new Billing()])).toThrow(message);
  });

  it("the message says why, for an inherited member and for a prototype-reaching key", () => {
    class Wallet {
      @Tool("Pays")
      pay(@Args(dtoWith("toString", "Payment")) input: object) {
        return input;
      }
    }
    expect(scanErrorOf(new Wallet()).message).toBe(
      'Wallet.pay, parameter 0: DTO Payment has a property named "toString", which every object already has (Object.prototype.toString): class-transformer would not fill it from the arguments and class-validator would check the inherited member instead. Rename the property.',
    );
    class Vault {
      @Tool("Stores")
      store(@Args(dtoWith("__proto__", "Item")) input: object) {
        return input;
      }
    }
    expect(scanErrorOf(new Vault()).message).toBe(
      'Vault.store, parameter 0: DTO Item has a property named "__proto__", a key calls may not carry (they are refused as prototype pollution), so it could never be filled. Rename the property.',
    );
  });

  it("a nested DTO, however deep, named with the path that reaches it", () => {
    const Street = dtoWith("hasOwnProperty", "Street");
    class Address {
      @ValidateNested() @Type(() => Street) street!: object;
    }
    class Customer {
      @ValidateNested({ each: true }) @Type(() => Address) addresses!: Address[];
    }
    class Crm {
      @Tool("Saves a customer")
      save(@Param() customer: Customer) {
        return customer;
      }
    }
    expect(scanErrorOf(new Crm()).message).toBe(
      'Crm.save, parameter 0 ("customer"): DTO Street (at Customer.addresses → Address.street) has a property named "hasOwnProperty", which every object already has (Object.prototype.hasOwnProperty): class-transformer would not fill it from the arguments and class-validator would check the inherited member instead. Rename the property.',
    );
  });

  it("an array of DTOs, and a DTO whose schema is given explicitly", () => {
    const dto = dtoWith("isPrototypeOf", "Line");
    class Orders {
      @Tool("Orders lines")
      order(@Param({ type: [dto] }) lines: object[]) {
        return lines;
      }
    }
    expect(scanErrorOf(new Orders()).message).toContain(
      'Orders.order, parameter 0 ("lines"): DTO Line has a property named "isPrototypeOf"',
    );
    class Explicit {
      @Tool("Orders one line")
      order(@Param({ type: dto, schema: { type: "object" } }) line: object) {
        return line;
      }
    }
    expect(scanErrorOf(new Explicit()).message).toContain(
      'Explicit.order, parameter 0 ("line"): DTO Line has a property named "isPrototypeOf"',
    );
  });

  it("a discriminated subtype's property, and a discriminator named like a member", () => {
    abstract class Shape {}
    class Circle extends Shape {}
    IsNumber()(Circle.prototype, "toLocaleString");
    class Drawing {
      @ValidateNested()
      @Type(() => Shape, { discriminator: { property: "kind", subTypes: [{ value: Circle, name: "circle" }] } })
      shape!: Shape;
    }
    class Painter {
      @Tool("Draws")
      draw(@Args() drawing: Drawing) {
        return drawing;
      }
    }
    expect(scanErrorOf(new Painter()).message).toContain(
      'Painter.draw, parameter 0: DTO Circle (at Drawing.shape) has a property named "toLocaleString"',
    );

    class Square extends Shape {
      @IsNumber() side!: number;
    }
    class Tagged {
      @ValidateNested()
      @Type(() => Shape, { discriminator: { property: "constructor", subTypes: [{ value: Square, name: "square" }] } })
      shape!: Shape;
    }
    class Tagger {
      @Tool("Tags")
      tag(@Args() tagged: Tagged) {
        return tagged;
      }
    }
    expect(scanErrorOf(new Tagger()).message).toContain(
      'Tagger.tag, parameter 0: DTO Square (at Tagged.shape) has a property named "constructor" (its discriminator)',
    );
  });

  it("names that only resemble them are fine", async () => {
    class Item {
      @IsString() toStringValue!: string;
      @IsString() proto!: string;
      @IsString() prototypes!: string;
      @IsString() ValueOf!: string;
    }
    class Shelf {
      @Tool("Shelves")
      shelve(@Args() item: Item) {
        return Object.keys(item).sort().join(",");
      }
    }
    const kit = new Toolkit([new Shelf()]);
    expect(await kit.execute("shelve", { toStringValue: "a", proto: "b", prototypes: "c", ValueOf: "d" })).toEqual({
      output: "ValueOf,proto,prototypes,toStringValue",
      isError: false,
    });
  });
});

describe("DTOs that refer back to themselves", () => {
  it("are walked once per class: fine when their names are, refused when one is not", () => {
    class TreeNode {
      @IsString() label!: string;
      @ValidateNested({ each: true }) @Type(() => TreeNode) children!: TreeNode[];
    }
    class Trees {
      @Tool("Plants a tree")
      plant(@Param({ type: TreeNode, schema: { type: "object" } }) tree: TreeNode) {
        return tree.label;
      }
    }
    expect(() => scanTools(new Trees())).not.toThrow();

    class Branch {
      @ValidateNested() @Type(() => Branch) next!: Branch;
    }
    IsString()(Branch.prototype, "propertyIsEnumerable");
    class Forest {
      @Tool("Grows a branch")
      grow(@Param({ type: Branch, schema: { type: "object" } }) branch: Branch) {
        return branch;
      }
    }
    expect(scanErrorOf(new Forest()).message).toContain(
      'Forest.grow, parameter 0 ("branch"): DTO Branch has a property named "propertyIsEnumerable"',
    );
  });
});
