import { compileSchema } from "../runtime/validation";
import { isObject, type JSONSchemaObject } from "../core/types";

/**
 * How values cross a schema a provider's dialect rewrote. `encode` writes a value the tool
 * declared the way a model writes it under the provider's schema; `decode` reads the model's
 * answer back into the value the tool declared. Both come from the walk that rewrote the
 * schema, so nothing is rewritten without its way back. `undefined` is the identity: nodes
 * that were not rewritten cost nothing per call.
 */
export interface Codec {
  encode(value: unknown): unknown;
  decode(value: unknown): unknown;
}

export type MaybeCodec = Codec | undefined;

const hasOwn = Object.prototype.hasOwnProperty;

export function decodeWith(codec: MaybeCodec, value: unknown): unknown {
  return codec === undefined ? value : codec.decode(value);
}

export function encodeWith(codec: MaybeCodec, value: unknown): unknown {
  return codec === undefined ? value : codec.encode(value);
}

export interface ObjectCodecSpec {
  /** Declared properties and how their values cross. */
  properties: ReadonlyMap<string, MaybeCodec>;
  /** Properties the provider must send, with `null` standing for "not given". */
  nullMeansAbsent?: ReadonlySet<string>;
  /**
   * Properties the provider must send, which take `null` as a value of their own: "not given" is sent as null, and null
   * stays null.
   */
  absentSentAsNull?: ReadonlySet<string>;
  /** Undeclared keys (`additionalProperties`, `patternProperties`). */
  rest?: (key: string) => MaybeCodec;
}

/** An object's codec from its properties'; copy-on-write, so the caller's object is never changed. */
export function objectCodec({ properties, nullMeansAbsent, absentSentAsNull, rest }: ObjectCodecSpec): MaybeCodec {
  // Checked before anything is allocated: most objects need no way back.
  if (
    rest === undefined &&
    !nullMeansAbsent?.size &&
    !absentSentAsNull?.size &&
    ![...properties.values()].some((codec) => codec !== undefined)
  )
    return undefined;
  const declared = [...properties].filter(([, codec]) => codec !== undefined) as Array<[string, Codec]>;
  const absentAsNull = [...(nullMeansAbsent ?? [])];
  const sentAsNull = [...(absentSentAsNull ?? [])];
  const nullable = new Set(absentAsNull);
  const map = (value: unknown, direction: "encode" | "decode"): unknown => {
    if (!isObject(value)) return value;
    let copy: Record<string, unknown> | undefined;
    const set = (key: string, next: unknown) => {
      if (next !== value[key]) (copy ??= { ...value })[key] = next;
    };
    if (direction === "encode")
      for (const key of sentAsNull) if (!hasOwn.call(value, key)) (copy ??= { ...value })[key] = null;
    for (const key of absentAsNull) {
      if (direction === "encode" && !hasOwn.call(value, key)) (copy ??= { ...value })[key] = null;
      else if (direction === "decode" && hasOwn.call(value, key) && value[key] === null) {
        copy ??= { ...value };
        delete copy[key];
      }
    }
    for (const [key, codec] of declared) {
      if (!hasOwn.call(value, key) || (nullable.has(key) && value[key] === null)) continue;
      set(key, codec[direction](value[key]));
    }
    if (rest !== undefined) {
      for (const key of Object.keys(value)) {
        if (properties.has(key)) continue;
        const codec = rest(key);
        if (codec !== undefined) set(key, codec[direction](value[key]));
      }
    }
    return copy ?? value;
  };
  return { encode: (value) => map(value, "encode"), decode: (value) => map(value, "decode") };
}

/**
 * Keys the provider cannot take, sent under other names (`original → sent`) and read back
 * under their own, around the object's own codec.
 */
export function renamedKeys(inner: MaybeCodec, renames: ReadonlyMap<string, string>): MaybeCodec {
  if (renames.size === 0) return inner;
  const back = new Map([...renames].map(([original, sent]) => [sent, original]));
  const rename = (value: unknown, names: ReadonlyMap<string, string>): unknown => {
    if (!isObject(value) || ![...names.keys()].some((key) => hasOwn.call(value, key))) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[names.get(key) ?? key] = value[key];
    return out;
  };
  return {
    encode: (value) => rename(encodeWith(inner, value), renames),
    decode: (value) => decodeWith(inner, rename(value, back)),
  };
}

/** An array's codec: position `i` by `positions[i]` (tuples), the others by `rest`. */
export function arrayCodec(positions: readonly MaybeCodec[], rest: MaybeCodec): MaybeCodec {
  if (rest === undefined && positions.every((codec) => codec === undefined)) return undefined;
  const map = (value: unknown, direction: "encode" | "decode"): unknown => {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const codec = i < positions.length ? positions[i] : rest;
      if (codec === undefined) continue;
      const next = codec[direction](value[i]);
      if (next !== value[i]) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  };
  return { encode: (value) => map(value, "encode"), decode: (value) => map(value, "decode") };
}

/** One branch of a union: its codec, and the branch as the tool declared it. */
export interface UnionBranch {
  codec: MaybeCodec;
  accepts: (value: unknown) => boolean;
  /** The JSON types the provider's form of the branch takes: an answer of another type is not this branch's. */
  sentAs?: ReadonlySet<string>;
}

/**
 * A union's codec: a value is encoded by the first branch that accepts it (and whose
 * provider form takes what it writes); an answer is decoded by the first branch that can
 * have sent it and whose reading of it that branch accepts. Where encodings of two branches
 * meet, the walk that built the branches reports the loss.
 */
export function unionCodec(branches: readonly UnionBranch[]): MaybeCodec {
  if (branches.every((branch) => branch.codec === undefined)) return undefined;
  return {
    encode(value) {
      for (const { codec, accepts, sentAs } of branches) {
        if (!accepts(value)) continue;
        const encoded = encodeWith(codec, value);
        if (sentAs === undefined || sentAs.has(jsonTypeOf(encoded))) return encoded;
      }
      return value;
    },
    decode(value) {
      for (const { codec, accepts, sentAs } of branches) {
        if (sentAs !== undefined && !sentAs.has(jsonTypeOf(value))) continue;
        const decoded = decodeWith(codec, value);
        if (accepts(decoded)) return decoded;
      }
      return value;
    },
  };
}

/** A value's JSON type, integers counted as numbers. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "bigint" ? "number" : typeof value;
}

/** A codec resolved on first use: `$ref`s, recursive ones included. */
export function lazyCodec(resolve: () => MaybeCodec): Codec {
  let resolved: { codec: MaybeCodec } | undefined;
  const codec = () => (resolved ??= { codec: resolve() }).codec;
  return { encode: (value) => encodeWith(codec(), value), decode: (value) => decodeWith(codec(), value) };
}

/** Fixed values written as fixed strings (Gemini's string-only enums); other values pass as they are. */
export function tokenCodec(entries: ReadonlyArray<readonly [token: string, value: unknown]>): MaybeCodec {
  if (entries.every(([token, value]) => token === value)) return undefined;
  const byToken = new Map(entries.map(([token, value]) => [token, value]));
  const byValue = new Map(entries.map(([token, value]) => [valueKey(value), token]));
  return {
    encode: (value) => byValue.get(valueKey(value)) ?? value,
    // A fresh copy per answer: the tool may change what it is given.
    decode: (value) =>
      typeof value === "string" && byToken.has(value)
        ? (JSON.parse(JSON.stringify(byToken.get(value))) as unknown)
        : value,
  };
}

/** Any JSON value written as JSON text in a string, for dialects that cannot say "anything". */
export const JSON_TEXT: Codec = {
  encode: (value) => JSON.stringify(value),
  decode(value) {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
};

/** A key under which deep-equal JSON values meet (object keys sorted). */
export function valueKey(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    if (Array.isArray(value)) return `[${value.map(valueKey).join(",")}]`;
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${valueKey((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * Whether a value fits `schema` as the tool declared it (with the root's definitions, for
 * `$ref`s), compiled on first use: only unions whose branches were rewritten ask.
 */
export function acceptsLazily(schema: unknown, root: JSONSchemaObject): (value: unknown) => boolean {
  let check: ((value: unknown) => boolean) | undefined;
  return (value) => {
    if (check === undefined) {
      if (typeof schema === "boolean") check = () => schema;
      else {
        const definitions = {
          ...(root.$defs !== undefined ? { $defs: root.$defs } : {}),
          ...(root.definitions !== undefined ? { definitions: root.definitions } : {}),
        };
        try {
          const validate = compileSchema({ ...definitions, ...(schema as JSONSchemaObject) });
          check = (candidate) => validate(candidate) === true;
        } catch {
          // A branch that is no valid schema (a hand-written tool's) takes no answer here.
          check = () => false;
        }
      }
    }
    return check(value);
  };
}
