import fc from "fast-check";
import { withoutValuesAt } from "../../src/runtime/refused-values";
import { compileSchemaCheck } from "../../src/runtime/validation";

describe("the arguments left checkable when the schema refuses a call", () => {
  it("lose every value too large, every unknown key and every container of the wrong kind; keep the rest", () => {
    const check = compileSchemaCheck({
      type: "object",
      properties: {
        name: { type: "string", maxLength: 5 },
        tags: { type: "array", items: { type: "string", maxLength: 3 }, maxItems: 4 },
        size: { type: "integer" },
        note: { type: "string" },
        point: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
      },
      additionalProperties: false,
    });
    const args = {
      name: "far too long",
      tags: ["ok", "much too long", { a: 1 }],
      size: "big",
      note: ["a"],
      point: { x: 1, y: 2 },
      extra: { deep: [1] },
    };
    const findings = check(args)!;
    expect(findings.checkable).toEqual({ tags: ["ok", null, null], size: "big", point: { x: 1 } });
    expect(args).toEqual({
      name: "far too long",
      tags: ["ok", "much too long", { a: 1 }],
      size: "big",
      note: ["a"],
      point: { x: 1, y: 2 },
      extra: { deep: [1] },
    });
  });

  it("keep every value when nothing in them is unsafe", () => {
    const findings = compileSchemaCheck({ type: "object", properties: { n: { type: "integer" } } })({ n: "x" })!;
    expect(findings.checkable).toEqual({ n: "x" });
    expect(findings.problems).toEqual([{ path: "n", text: '"n" must be integer, got string "x"' }]);
  });

  it("never change the arguments, keep every list's length, and lose exactly the values pointed at", () => {
    const json = fc
      .dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }))
      // Calls carrying it are refused before any check.
      .filter((value) => !JSON.stringify(value).includes('"__proto__"'));
    const withPointers = json.chain((args) => {
      const pointers: string[][] = [];
      const walk = (node: unknown, at: string[]) => {
        if (typeof node !== "object" || node === null) return;
        for (const key of Object.keys(node)) {
          pointers.push([...at, key]);
          walk((node as Record<string, unknown>)[key], [...at, key]);
        }
      };
      walk(args, []);
      return fc.tuple(fc.constant(args), pointers.length === 0 ? fc.constant([]) : fc.subarray(pointers));
    });
    fc.assert(
      fc.property(withPointers, ([args, pointers]) => {
        const before = JSON.stringify(args);
        const left = withoutValuesAt(args, pointers);
        expect(JSON.stringify(args)).toBe(before);
        const read = (root: unknown, path: string[]) =>
          path.reduce<unknown>(
            (node, key) =>
              typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined,
            root,
          );
        for (const pointer of pointers) {
          const parent = read(args, pointer.slice(0, -1));
          const leftParent = read(left, pointer.slice(0, -1));
          if (leftParent === undefined || leftParent === null) continue; // taken out above
          if (Array.isArray(parent)) {
            expect((leftParent as unknown[]).length).toBe(parent.length);
            expect((leftParent as unknown[])[Number(pointer.at(-1))]).toBeNull();
          } else expect(Object.hasOwn(leftParent as object, pointer.at(-1)!)).toBe(false);
        }
      }),
    );
  });
});
