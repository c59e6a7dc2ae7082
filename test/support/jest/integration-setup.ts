import { INTEGRATION_TIMEOUT_MS } from "../time";

jest.setTimeout(INTEGRATION_TIMEOUT_MS);
