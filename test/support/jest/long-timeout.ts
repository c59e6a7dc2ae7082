import { LONG_TIMEOUT_MS } from "../time";

jest.setTimeout(LONG_TIMEOUT_MS);
