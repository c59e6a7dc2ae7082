import { ScanError, scanTools } from "../../src";

/** The ScanError that `run` throws; fails the test when it throws none, or something else. */
export function scanErrorThrownBy(run: () => unknown): ScanError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScanError);
    return error as ScanError;
  }
  throw new Error("expected a ScanError");
}

/** The ScanError that scanning `instance` throws. */
export function scanErrorOf(instance: object): ScanError {
  return scanErrorThrownBy(() => scanTools(instance));
}
