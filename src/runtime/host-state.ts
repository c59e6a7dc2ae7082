import { isObject } from "../core/types";

/**
 * What a host's `state` function gave for one call, checked: an object, or `undefined` for no
 * state. Anything else is a mistake of the host, thrown as a TypeError naming the option.
 */
export function checkedHostState(value: unknown, option: string): Record<string, unknown> | undefined {
  if (value === undefined || isObject(value)) return value;
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  throw new TypeError(`${option} must give an object or undefined (got ${got})`);
}
