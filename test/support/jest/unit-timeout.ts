import { UNIT_TIMEOUT_MS } from "../time";

jest.setTimeout(UNIT_TIMEOUT_MS);
