import { ScanError, scanTools } from "../../src";

/** The ScanError that scanning `instance` throws; fails the test when it throws none, or something else. */
export function scanErrorOf(instance: object): ScanError {
  try {
    scanTools(instance);
  } catch (error) {
    expect(error).toBeInstanceOf(ScanError);
    return error as ScanError;
  }
  throw new Error("expected scanTools to throw a ScanError");
}
