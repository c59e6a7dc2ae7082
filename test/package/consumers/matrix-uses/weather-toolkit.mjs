/**
 * The one tool every provider round trip calls: the scripted models of the test's stand-ins
 * (test/support/mock-providers.ts, the Converse stand-in) call `get_weather` with
 * `{ city: "Chennai" }`, then answer with text quoting what it returned.
 */
import { defineTool, Toolkit } from "toolnexus";
import { weatherToolOptions } from "./weather-tool.cjs";

export const weatherTool = () => defineTool(weatherToolOptions());

export const weatherToolkit = () => new Toolkit([weatherTool()]);

/** Where the test's provider stand-ins listen. */
export const mockProvidersUrl = () => required("MOCK_PROVIDERS_URL");

export function required(variable) {
  const value = process.env[variable];
  if (value === undefined || value === "") throw new Error(`${variable} is not set: the test sets it.`);
  return value;
}

/** What the script found, as the one JSON line the test reads. */
export const report = (value) => console.log(JSON.stringify(value));
