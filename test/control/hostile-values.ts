/**
 * Values a caller may hand a toolkit where it expects a name, arguments, a ctx or options:
 * anything fast-check makes, and objects made to break whoever reads them.
 */
import fc from "fast-check";

const thrower = (what: string) => () => {
  throw new Error(`${what} threw`);
};

/** A Proxy whose every trap throws (its handler is a Proxy handing out throwing traps). */
export function everyTrapThrows(): object {
  return new Proxy({}, new Proxy({}, { get: () => thrower("a trap") }));
}

/** A Proxy that throws on every operation, `Array.isArray` included. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Hand-made values that throw, or cannot become text, when read or converted. */
export function hostileValues(): Array<[string, unknown]> {
  return [
    ["a null-prototype object", Object.create(null)],
    ["an object whose toString throws", { toString: thrower("toString") }],
    ["an object whose Symbol.toPrimitive throws", { [Symbol.toPrimitive]: thrower("toPrimitive") }],
    [
      "an object whose getters throw",
      Object.defineProperties(
        {},
        Object.fromEntries(
          ["approved", "reason", "callId", "timeout", "signal", "state", "then"].map((key) => [
            key,
            { get: thrower(key), enumerable: true },
          ]),
        ),
      ),
    ],
    ["a symbol", Symbol("name")],
    ["a number", 42],
    ["NaN", Number.NaN],
    ["a bigint", 10n],
    ["undefined", undefined],
    ["null", null],
    ["a function", () => "echo"],
    ["a Proxy that throws on every trap", everyTrapThrows()],
    ["a revoked Proxy", revokedProxy()],
    ["a thenable whose then throws", { then: thrower("then") }],
  ];
}

/** Whether fast-check can carry `value` (it asks each value whether it can be cloned: a throwing Proxy answers with a throw). */
function carriedByFastCheck(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  try {
    Reflect.has(value, fc.cloneMethod);
    return true;
  } catch {
    return false;
  }
}

/**
 * Any value: fast-check's, or one of the hand-made hostile ones it can carry (the Proxies are
 * left out: test them with `hostileValues` directly).
 */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withNullPrototype: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  fc.constantFrom(...hostileValues().flatMap(([, value]) => (carriedByFastCheck(value) ? [value] : []))),
);
